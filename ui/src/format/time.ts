// Times of the dashboard, in the browser's time zone, 24-hour clock.

const pad = (n: number): string => String(n).padStart(2, '0');
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** `14:05` */
export function formatClock(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `2024-05-01 14:05:09`: a record's time, sortable and unambiguous. */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A chart's time label for a point of a series with `stepMs` between points: the clock within a day, else the day. */
export function formatTick(ms: number, stepMs: number): string {
  const d = new Date(ms);
  if (stepMs >= HOUR && d.getHours() === 0 && d.getMinutes() === 0) return `${DAYS[d.getDay()]} ${d.getDate()} ${MONTHS[d.getMonth()]}`;
  if (stepMs >= HOUR) return `${DAYS[d.getDay()]} ${formatClock(ms)}`;
  return formatClock(ms);
}

/** The span one point of a series covers, for a chart's hover readout: `14:05`, `14:00–14:15`, `Mon 14:00–15:00`. */
export function formatSpan(start: number, stepMs: number): string {
  const end = start + stepMs;
  const day = stepMs >= HOUR ? `${DAYS[new Date(start).getDay()]} ` : '';
  if (stepMs <= 60_000) return `${day}${formatClock(start)}`;
  return `${day}${formatClock(start)}–${formatClock(end)}`;
}

/** How long ago `ms` was, in its largest unit: `just now`, `40 s ago`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function formatAgo(ms: number, now = Date.now()): string {
  const s = Math.round((now - ms) / 1000);
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < DAY / 1000) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/**
 * When a record happened, for a list of records: the time to the second today (`14:05:09`), with the day before it
 * on another day of this year (`3 May 14:05:09`), and the full date in another year (`2023-12-31 23:59:59`). A list
 * of "just now" tells rows apart by nothing; the relative time goes in the hover title (formatAgo).
 */
export function formatWhen(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const today = new Date(now);
  const clock = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  if (d.getFullYear() !== today.getFullYear()) return formatDateTime(ms);
  if (d.getMonth() === today.getMonth() && d.getDate() === today.getDate()) return clock;
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${clock}`;
}
