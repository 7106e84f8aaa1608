// Containers on the home grid (perch's `containers` tile, every 60 s): how many run, per environment, an unreachable
// one said as such, and the running containers by name.
import { Pending } from '../../../home/widget-parts.js';
import type { ContainersList } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';
import type { WidgetProps } from '../../types.js';
import { ENGINE_NAMES } from '../containers/containers-api.js';

const EVERY_MS = 60_000;

export default function ContainersWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<ContainersList>('/api/containers', EVERY_MS);
  if (!data) return <Pending error={error} what="containers" />;
  if (data.environments.length === 0) return <p class="widget-note">No container engine found.</p>;
  const running = data.containers.filter((c) => c.running);
  const down = data.environments.filter((e) => e.state !== 'ok');
  return (
    <div class="updates-widget">
      <p class="widget-figure">{running.length}<span class="widget-figure-unit"> of {data.containers.length} running</span></p>
      <p class="widget-note">
        {data.environments.filter((e) => e.state === 'ok').map((e) => ENGINE_NAMES[e.kind]).join(', ') || 'none answered'}
        {down.length > 0 && <span class="tone-warning">{` · ${down.map((e) => `${ENGINE_NAMES[e.kind]} ${e.message ?? e.state}`).join(', ')}`}</span>}
      </p>
      {running.length > 0 && (
        <ul class="widget-list" aria-label="Running containers">
          {running.slice(0, Math.max(1, size.h * 2 - 1)).map((c) => <li key={`${c.env}-${c.id}`}><span>{c.name}</span><span>{ENGINE_NAMES[c.env]}</span></li>)}
        </ul>
      )}
    </div>
  );
}
