import { Card } from '../../components/card.js';
import { formatBytes, formatShare, LIMITS, limitTone, meterTone } from './host-format.js';
import type { LiveReading } from './host-api.js';
import { Meter } from './meter.js';
import { Sparkline } from './sparkline.js';
import { WINDOW_POINTS } from './live-host.js';

/** Memory in use (total − available, as `free` counts it) with its last minutes, and swap. */
export function MemoryCard({ memory, line }: { memory: NonNullable<LiveReading['memory']>; line: readonly (number | null)[] }) {
  const m = memory;
  return (
    <Card title="Memory" description="In use: all the kernel cannot hand out at once; cache it can drop counts as available" class="host-card">
      <div class="host-figure">
        <span class={`host-figure-value tone-${limitTone(m.percent, LIMITS.memory)}`}>{formatShare(m.percent)}</span>
        <span class="host-figure-label">{formatBytes(m.used_bytes)} of {formatBytes(m.total_bytes)}</span>
        <Sparkline values={line} slots={WINDOW_POINTS} max={100} color="--chart-2" label="Memory in use over the last five minutes" />
      </div>
      <Meter label="Memory" percent={m.percent} tone={meterTone(m.percent, LIMITS.memory)}
        value={`${formatBytes(m.used_bytes)} / ${formatBytes(m.total_bytes)}`}
        detail={`${formatBytes(m.available_bytes)} available · ${formatBytes(m.cached_bytes + m.buffers_bytes)} cache and buffers`} />
      {m.swap_total_bytes > 0 ? (
        <Meter label="Swap" percent={m.swap_percent} tone={meterTone(m.swap_percent, LIMITS.swap)}
          value={`${formatBytes(m.swap_used_bytes)} / ${formatBytes(m.swap_total_bytes)}`} />
      ) : (
        <p class="host-note">No swap: when memory runs out, the kernel ends a process rather than slowing down.</p>
      )}
    </Card>
  );
}
