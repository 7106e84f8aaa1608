// Listening ports with their processes, every 15 s (perch's cadence for its ports widget), network-visible first.
import { Pending } from '../../../home/widget-parts.js';
import type { ListeningPorts } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';
import type { WidgetProps } from '../../types.js';

const EVERY_MS = 15_000;

export default function PortsWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<ListeningPorts>('/api/net?limit=200', EVERY_MS);
  if (!data) return <Pending error={error} what="listening ports" />;
  const rows = [...data.ports].sort((a, b) => Number(b.visible) - Number(a.visible) || a.port - b.port);
  if (rows.length === 0) return <p class="widget-note">Nothing listens on this machine.</p>;
  return (
    <ul class="widget-list" aria-label={`Listening ports: ${data.total}, ${data.ports.filter((p) => p.visible).length} reachable from the network`}>
      {rows.slice(0, Math.max(1, size.h * 3)).map((p) => (
        <li key={`${p.protocol}-${p.inode}`}>
          <span title={p.command ?? ''}>{p.port}/{p.protocol} <span class="widget-note">{p.own ?? p.name ?? '—'}</span></span>
          <span>{p.visible ? 'network' : 'local'}</span>
        </li>
      ))}
    </ul>
  );
}
