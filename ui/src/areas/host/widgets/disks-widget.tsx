// Usage of each real partition, every 60 s (it changes slowly, and a hung network mount costs a statfs timeout).
import { Pending } from '../../../home/widget-parts.js';
import type { HostLive } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';
import type { WidgetProps } from '../../types.js';
import { LIMITS, alarmTone, formatBytes, formatShare } from '../host-format.js';

const EVERY_MS = 60_000;

export default function DisksWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<HostLive>('/api/host/live', EVERY_MS);
  if (!data) return <Pending error={error} what="disks" />;
  if (!data.disks.length) return <p class="widget-note">No real partition is readable here.</p>;
  const fullest = [...data.disks].sort((a, b) => (b.percent ?? -1) - (a.percent ?? -1));
  return (
    <ul class="widget-list" aria-label="Partitions, fullest first">
      {fullest.slice(0, Math.max(1, size.h * 2)).map((d) => (
        <li key={d.mount}>
          <span title={`${d.device} (${d.fs_type})`}>{d.mount}</span>
          <span class={alarmTone(d.percent, LIMITS.disk) ? `widget-${alarmTone(d.percent, LIMITS.disk)}` : ''}>{formatShare(d.percent)} of {formatBytes(d.total_bytes)}</span>
        </li>
      ))}
    </ul>
  );
}
