// Busy share per core, one bar each, from the 2 s live reading.
import { Detail, Pending } from '../../../home/widget-parts.js';
import type { WidgetProps } from '../../types.js';
import { useHostLive } from './host-data.js';

export default function CoresWidget(_: WidgetProps) {
  const { data, error } = useHostLive();
  if (!data) return <Pending error={error} what="per-core load" />;
  const cores = data.cpu.cores;
  if (!cores.length) return <p class="widget-note">Measuring: the first per-core shares come with the next reading.</p>;
  const busiest = cores.reduce((m, c) => Math.max(m, c), 0);
  return (
    <>
      <Detail>{cores.length} cores · busiest {Math.round(busiest)}% · {data.cpu.running} running of {data.cpu.tasks} tasks</Detail>
      <div class="widget-bars" role="img" aria-label={`Busy share per core: ${cores.map((c, i) => `core ${i} ${Math.round(c)}%`).join(', ')}`}>
        {cores.map((c, i) => <div key={i} class="widget-bar" style={{ height: `${Math.max(2, Math.min(100, c))}%` }} title={`core ${i}: ${Math.round(c)}%`} />)}
      </div>
    </>
  );
}
