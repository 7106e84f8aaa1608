import { Card } from '../../components/card.js';
import { formatInteger, NBSP } from '../../format/numbers.js';
import { formatBytes, formatCelsius, formatShare } from './host-format.js';
import type { GpuRow } from './host-api.js';
import { Meter } from './meter.js';

/** Each GPU nvidia-smi or the DRM sysfs exposes: how busy, its memory, clock, power and temperature, where the driver tells. */
export function GpuCard({ gpus }: { gpus: readonly GpuRow[] }) {
  return (
    <Card title={gpus.length === 1 ? 'GPU' : 'GPUs'} description="What the driver exposes; some drivers give no load" class="host-card">
      {gpus.map((g) => {
        const vram = g.vram_total_bytes ? ((g.vram_used_bytes ?? 0) / g.vram_total_bytes) * 100 : null;
        return (
          <div class="host-gpu" key={g.id}>
            <p class="host-gpu-name">{g.name ?? g.id} <span class="muted">{g.vendor} · {g.source}</span></p>
            <dl class="host-facts">
              {g.celsius !== null && <div><dt>Temperature</dt><dd>{formatCelsius(g.celsius)}</dd></div>}
              {g.freq_mhz !== null && <div><dt>Clock</dt><dd>{formatInteger(g.freq_mhz)}{g.max_freq_mhz ? ` / ${formatInteger(g.max_freq_mhz)}` : ''}{NBSP}MHz</dd></div>}
              {g.power_w !== null && <div><dt>Power</dt><dd>{g.power_w.toFixed(0)}{NBSP}W</dd></div>}
            </dl>
            {g.busy_percent !== null && <Meter label="Busy" percent={g.busy_percent} value={formatShare(g.busy_percent)} />}
            {vram !== null && <Meter label="Video memory" percent={vram} value={`${formatBytes(g.vram_used_bytes ?? 0)} / ${formatBytes(g.vram_total_bytes)}`} />}
          </div>
        );
      })}
    </Card>
  );
}
