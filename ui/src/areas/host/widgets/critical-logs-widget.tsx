// The newest system journal lines at priority "err" or worse. Each read runs journalctl (bounded by the route:
// 5 s, 8 MiB), so once a minute.
import type { LogLines } from '../../../data/api.gen.js';
import { formatClock } from '../../../format/time.js';
import { usePolled } from '../../../home/shared-poll.js';
import { Pending } from '../../../home/widget-parts.js';
import type { WidgetProps } from '../../types.js';

const EVERY_MS = 60_000;
const PRIORITY = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'];

export default function CriticalLogsWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<LogLines>('/api/logs?source=system&prio=err&n=30', EVERY_MS);
  if (!data) return <Pending error={error} what="critical logs" />;
  const lines = data.lines.slice(-Math.max(1, size.h * 3 - 1)).reverse();
  if (!lines.length) {
    return <p class="widget-note">{data.origin === 'none' ? (data.note ?? 'No system log is readable here.') : 'No error in the system log. Lines at priority err or worse show here.'}</p>;
  }
  return (
    <ul class="widget-list widget-log" aria-label="System log lines at priority err or worse, newest first">
      {lines.map((l, i) => (
        <li key={`${l.time}-${i}`}>
          <span title={l.message}>
            <span class={l.priority !== null && l.priority <= 2 ? 'widget-danger' : 'widget-warning'}>{l.priority === null ? '' : PRIORITY[l.priority]}</span>{' '}
            {l.unit && <strong>{l.unit}: </strong>}{l.message}
          </span>
          <span class="widget-note">{l.time ? formatClock(Date.parse(l.time)) : ''}</span>
        </li>
      ))}
    </ul>
  );
}
