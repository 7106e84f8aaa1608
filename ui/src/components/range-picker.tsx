import { Segmented, type SegmentedOption } from './segmented.js';

/** The named ranges of the gateway's APIs (plugins/capture/time-range.ts). */
export const RANGES = ['1h', '24h', '7d'] as const;
export type RangeName = (typeof RANGES)[number];

const options: SegmentedOption<RangeName>[] = [
  { value: '1h', label: '1h', description: 'Last hour' },
  { value: '24h', label: '24h', description: 'Last 24 hours' },
  { value: '7d', label: '7d', description: 'Last 7 days' },
];

/** Last hour, day or week. */
export function RangePicker({ value, onChange }: { value: RangeName; onChange(value: RangeName): void }) {
  return <Segmented label="Time range" options={options} value={value} onChange={onChange} />;
}
