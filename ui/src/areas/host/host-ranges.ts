// The history's ranges (GET /api/trend?range=): a day of minute samples, or 7, 30 or 90 days of hourly rollups.
import type { SegmentedOption } from '../../components/segmented.js';

export const HOST_RANGES = ['24h', '7d', '30d', '90d'] as const;
export type HostRange = (typeof HOST_RANGES)[number];

export const HOST_RANGE_OPTIONS: SegmentedOption<HostRange>[] = [
  { value: '24h', label: '24h', description: 'Last 24 hours, a point a minute' },
  { value: '7d', label: '7d', description: 'Last 7 days, a point an hour' },
  { value: '30d', label: '30d', description: 'Last 30 days, a point an hour' },
  { value: '90d', label: '90d', description: 'Last 90 days, a point an hour' },
];

/** The range in words, after "over": `the last 24 hours`. */
export const HOST_RANGE_TEXT: Record<HostRange, string> = {
  '24h': 'the last 24 hours', '7d': 'the last 7 days', '30d': 'the last 30 days', '90d': 'the last 90 days',
};

/** Milliseconds each point of a range covers: a minute sample for a day, an hourly rollup beyond. */
export const hostRangeStep = (range: HostRange): number => (range === '24h' ? 60_000 : 3_600_000);

/** Whether a range is made of hourly rollups (each point has an average and a peak). */
export const isHourly = (range: HostRange): boolean => range !== '24h';

/** The CSV export of a range: a plain same-origin link, so the session cookie authenticates it (no token in a URL). */
export const trendCsvPath = (range: HostRange): string => `/api/trendcsv?range=${range}`;
