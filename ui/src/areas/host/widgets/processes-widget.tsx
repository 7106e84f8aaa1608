// The busiest processes by CPU, every 8 s (perch's cadence: a walk of /proc is the dearest reading here).
import { Pending } from '../../../home/widget-parts.js';
import type { HostProcesses } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';
import type { WidgetProps } from '../../types.js';
import { formatBytes } from '../host-format.js';

const EVERY_MS = 8000;

export default function ProcessesWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<HostProcesses>('/api/processes?sort=cpu&limit=12', EVERY_MS);
  if (!data) return <Pending error={error} what="processes" />;
  return (
    <ul class="widget-list" aria-label={`Top processes by CPU, of ${data.total}`}>
      {data.processes.slice(0, Math.max(1, size.h * 2)).map((p) => (
        <li key={p.pid}><span title={p.command}>{p.name} <span class="widget-note">{p.pid}</span></span><span>{p.cpu_percent.toFixed(1)}% · {formatBytes(p.rss_bytes)}</span></li>
      ))}
    </ul>
  );
}
