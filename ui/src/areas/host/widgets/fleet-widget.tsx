// The fleet: each machine's status, CPU, memory and temperature, at the fleet poller's own interval (polling it
// faster would only re-read the same answers).
import { Detail, Pending } from '../../../home/widget-parts.js';
import type { FleetGrid } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';
import { Link } from '../../../shell/router.js';
import type { WidgetProps } from '../../types.js';
import { formatShare } from '../host-format.js';

const EVERY_MS = 15_000;

export default function FleetWidget(_: WidgetProps) {
  const { data, error } = usePolled<FleetGrid>('/api/fleet', EVERY_MS);
  if (!data) return <Pending error={error} what="the fleet" />;
  const up = data.machines.filter((m) => m.status === 'up').length;
  // As many as the tile holds: a column per 260 px, two lines per row of the grid.
  const shown = data.machines.slice(0, 48);
  return (
    <>
      <Detail>{up} of {data.machines.length} up · <Link href="/host/fleet">Fleet</Link></Detail>
      <ul class="widget-list widget-fleet" aria-label="Machines">
        {shown.map((m) => (
          <li key={`${m.source}:${m.name}`}>
            <span class={m.status === 'down' ? 'widget-danger' : ''} title={m.error ?? undefined}>{m.name} · {m.status}</span>
            <span>
              {m.overview ? `CPU ${formatShare(m.overview.cpu.percent)} · mem ${formatShare(m.overview.memory.percent)}${m.overview.temperature_c === null ? '' : ` · ${Math.round(m.overview.temperature_c)} °C`}` : '—'}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
