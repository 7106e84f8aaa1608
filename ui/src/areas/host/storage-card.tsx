import { Card } from '../../components/card.js';
import { formatByteRate, formatBytes, formatShare, LIMITS, meterTone } from './host-format.js';
import type { LiveReading } from './host-api.js';
import { Meter } from './meter.js';
import { Sparkline } from './sparkline.js';
import { WINDOW_POINTS } from './live-host.js';

const last = (l: readonly (number | null)[]): number | null => l[l.length - 1] ?? null;

/** Each real partition's usage (as `df` shows it), fullest first, and disk reads and writes a second. */
export function StorageCard({ now, read, write }: { now: LiveReading; read: readonly (number | null)[]; write: readonly (number | null)[] }) {
  const mounts = [...now.disks].sort((a, b) => (b.percent ?? -1) - (a.percent ?? -1));
  const disks = now.disk_io.some((d) => d.whole_disk) ? now.disk_io.filter((d) => d.whole_disk) : now.disk_io;
  return (
    <Card title="Disks" description="Usage of each real partition; reads and writes of every disk" class="host-card">
      <div class="host-pair">
        <div class="host-figure host-figure-small">
          <span class="host-figure-value">{formatByteRate(last(read))}</span>
          <span class="host-figure-label">read</span>
          <Sparkline values={read} slots={WINDOW_POINTS} color="--chart-5" label="Disk reads over the last five minutes" />
        </div>
        <div class="host-figure host-figure-small">
          <span class="host-figure-value">{formatByteRate(last(write))}</span>
          <span class="host-figure-label">written</span>
          <Sparkline values={write} slots={WINDOW_POINTS} color="--chart-3" label="Disk writes over the last five minutes" />
        </div>
      </div>
      {mounts.length === 0 && <p class="host-note">No partition could be read (a container without mounts of its own has none).</p>}
      {mounts.map((m) => (
        <Meter key={`${m.device}:${m.mount}`} label={<code title={`${m.device} (${m.fs_type})`}>{m.mount}</code>} percent={m.percent}
          tone={meterTone(m.percent, LIMITS.disk)} value={formatShare(m.percent)}
          detail={m.total_bytes === null ? `${m.fs_type}: its size could not be read in time` : `${formatBytes(m.available_bytes)} free of ${formatBytes(m.total_bytes)} · ${m.fs_type}`} />
      ))}
      {disks.length > 0 && (
        <div class="host-mini-wrap" role="region" aria-label="Disk reads and writes" tabIndex={0}>
          <table class="host-mini-table">
            <caption class="sr-only">Reads, writes and busy time per disk</caption>
            <thead><tr><th scope="col">Disk</th><th scope="col" class="align-end">Read</th><th scope="col" class="align-end">Written</th><th scope="col" class="align-end">Busy</th></tr></thead>
            <tbody>
              {disks.map((d) => (
                <tr key={d.name}>
                  <th scope="row"><code>{d.name}</code></th>
                  <td class="align-end numeric">{formatByteRate(d.read_bps)}</td>
                  <td class="align-end numeric">{formatByteRate(d.write_bps)}</td>
                  <td class="align-end numeric">{formatShare(d.busy_percent)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
