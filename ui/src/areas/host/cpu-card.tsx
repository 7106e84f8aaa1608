import { Card } from '../../components/card.js';
import { formatInteger } from '../../format/numbers.js';
import { formatLoad, formatShare, LIMITS, limitTone, meterTone } from './host-format.js';
import type { LiveReading } from './host-api.js';
import { Meter } from './meter.js';
import { Sparkline } from './sparkline.js';
import { WINDOW_POINTS } from './live-host.js';

/** CPU: the busy share of all cores with its last minutes and what it is made of, the load averages, and each core. */
export function CpuCard({ now, line }: { now: LiveReading; line: readonly (number | null)[] }) {
  const { cpu } = now;
  const cores = cpu.cores.length;
  const [l1 = 0, l5 = 0, l15 = 0] = cpu.load;
  const busy = cpu.total?.busy ?? null;
  return (
    <Card title="CPU" description={cores ? `${cores} ${cores === 1 ? 'core' : 'cores'}; load counts the tasks running or waiting to run` : 'Load counts the tasks running or waiting to run'} class="host-card">
      <div class="host-figure">
        <span class={`host-figure-value tone-${limitTone(busy, LIMITS.cpu)}`}>{formatShare(busy)}</span>
        <span class="host-figure-label">busy, all cores</span>
        <Sparkline values={line} slots={WINDOW_POINTS} max={100} label="CPU busy over the last five minutes" />
      </div>
      <dl class="host-facts">
        {cpu.total && <>
          <div><dt>User</dt><dd>{formatShare(cpu.total.user)}</dd></div>
          <div><dt>System</dt><dd>{formatShare(cpu.total.system)}</dd></div>
          <div><dt title="Waiting for disk or network I/O">I/O wait</dt><dd class={cpu.total.iowait >= 20 ? 'tone-warning' : undefined}>{formatShare(cpu.total.iowait)}</dd></div>
          {cpu.total.steal > 0 && <div><dt title="Taken by the hypervisor for other guests">Steal</dt><dd>{formatShare(cpu.total.steal)}</dd></div>}
        </>}
      </dl>
      <dl class="host-facts">
        <div><dt>Load 1 min</dt><dd class={cores && l1 > cores ? 'tone-warning' : undefined}>{formatLoad(l1)}</dd></div>
        <div><dt>5 min</dt><dd>{formatLoad(l5)}</dd></div>
        <div><dt>15 min</dt><dd>{formatLoad(l15)}</dd></div>
        <div><dt>Tasks</dt><dd>{formatInteger(cpu.running)} running of {formatInteger(cpu.tasks)}</dd></div>
      </dl>
      {cores > 0 ? (
        <div class="host-cores" role="list" aria-label="Busy share per core">
          {cpu.cores.map((p, i) => (
            <div role="listitem" key={i}>
              <Meter compact label={`Core ${i}`} percent={p} value={formatShare(p)} tone={meterTone(p, LIMITS.cpu)} />
            </div>
          ))}
        </div>
      ) : <p class="host-note">Each core's share shows from the next reading (it needs two).</p>}
    </Card>
  );
}
