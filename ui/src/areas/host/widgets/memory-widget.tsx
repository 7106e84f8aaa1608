// Memory in use (total less available), swap beside it.
import { Detail, Figure, Pending, Sparkline, useRecent } from '../../../home/widget-parts.js';
import type { WidgetProps } from '../../types.js';
import { useHostOverview } from './host-data.js';
import { LIMITS, alarmTone, formatBytes, formatShare } from '../host-format.js';

export default function MemoryWidget({ size }: WidgetProps) {
  const { data, error } = useHostOverview();
  const recent = useRecent(data?.memory.percent, data?.taken_at);
  if (!data) return <Pending error={error} what="memory" />;
  const m = data.memory;
  return (
    <>
      <Figure value={formatShare(m.percent)} tone={alarmTone(m.percent, LIMITS.memory)} />
      <Detail>{formatBytes(m.used_bytes)} of {formatBytes(m.total_bytes)}{m.swap_total_bytes ? ` · swap ${formatBytes(m.swap_used_bytes)}` : ''}</Detail>
      {(size.h > 1 || size.w !== 1) && <Sparkline values={recent} max={100} />}
    </>
  );
}
