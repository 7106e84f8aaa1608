// Reads and writes per second over whole disks (partitions would count twice), from the 2 s live reading.
import { Detail, Figure, Pending, Sparkline, useRecent } from '../../../home/widget-parts.js';
import type { WidgetProps } from '../../types.js';
import { useHostLive } from './host-data.js';
import { formatByteRate, formatShare, splitBytes } from '../host-format.js';

export default function DiskIoWidget({ size }: WidgetProps) {
  const { data, error } = useHostLive();
  const disks = data?.disk_io.filter((d) => d.whole_disk) ?? [];
  const read = disks.reduce((s, d) => s + (d.read_bps ?? 0), 0);
  const write = disks.reduce((s, d) => s + (d.write_bps ?? 0), 0);
  const recent = useRecent(data ? read + write : undefined, data?.taken_at);
  if (!data) return <Pending error={error} what="disk I/O" />;
  if (!disks.length) return <p class="widget-note">No disk statistics here (a container without /proc/diskstats).</p>;
  return (
    <>
      <Figure value={`R ${splitBytes(read).value}`} unit={`${splitBytes(read).unit}/s`} label={`Reads ${formatByteRate(read)}`} />
      <Detail>W {formatByteRate(write)} · {disks.length} {disks.length === 1 ? 'disk' : 'disks'}</Detail>
      {size.h > 1 && size.h < 3 && <Sparkline values={recent} />}
      {size.h >= 3 && (
        <ul class="widget-list" aria-label="Disks">
          {disks.slice(0, size.h * 2).map((d) => (
            <li key={d.name}><span>{d.name}</span><span>R {formatByteRate(d.read_bps)} · W {formatByteRate(d.write_bps)} · busy {formatShare(d.busy_percent)}</span></li>
          ))}
        </ul>
      )}
    </>
  );
}
