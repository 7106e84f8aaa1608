import { formatAgo, formatDateTime, formatWhen } from '../format/time.js';

/**
 * When a record happened, in a list: the clock time (with the day when not today, formatWhen) and, on hover, how
 * long ago and the full date. `now` is the list's own, so every row of one render is measured from the same moment.
 */
export function RecordTime({ ms, now = Date.now() }: { ms: number; now?: number }) {
  return <time dateTime={new Date(ms).toISOString()} title={`${formatAgo(ms, now)}, ${formatDateTime(ms)}`}>{formatWhen(ms, now)}</time>;
}
