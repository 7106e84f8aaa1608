// CPU busy share of all cores, the load averages, and the last few minutes as a line.
import { Detail, Figure, Pending, Sparkline, useRecent } from '../../../home/widget-parts.js';
import type { WidgetProps } from '../../types.js';
import { useHostOverview } from './host-data.js';
import { LIMITS, alarmTone, formatShare } from '../host-format.js';

export default function CpuWidget({ size }: WidgetProps) {
  const { data, error } = useHostOverview();
  const recent = useRecent(data?.cpu.percent, data?.taken_at);
  if (!data) return <Pending error={error} what="CPU" />;
  const pct = data.cpu.percent;
  return (
    <>
      <Figure value={formatShare(pct)} tone={alarmTone(pct, LIMITS.cpu)} />
      <Detail>load {data.cpu.load.map((l) => l.toFixed(2)).join(' · ')} on {data.cpu.cores} {data.cpu.cores === 1 ? 'core' : 'cores'}</Detail>
      {(size.h > 1 || size.w !== 1) && <Sparkline values={recent} max={100} />}
    </>
  );
}
