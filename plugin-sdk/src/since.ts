import { tryParseDuration } from './units.js';

// Calendar date, optionally a time (seconds and fraction optional), optionally an offset. Anything else that
// Date.parse would guess at ("March 7", "1/2/3") is refused.
const isoDateTime = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

/** Date.parse rolls 2024-02-30 over to March; a day that does not exist is an input error instead. */
function isCalendarDate(ymd: string): boolean {
  const [y, m, d] = ymd.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * A `since` query parameter of the public API as epoch ms, or undefined when it is none: digits (epoch ms), an ISO 8601
 * date or date-time (UTC without an offset), or a duration back from now in the config's syntax (`90s`, `15m`, `7d`,
 * `1h30m`). Shared so that every plugin's list reads `since` alike; each answers a bad one with its own error code.
 */
export function tryParseSince(value: string, now = Date.now()): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  if (/^[\d.]+[a-z]/.test(text)) {
    const ms = tryParseDuration(text);
    if (ms !== undefined) return now - ms;
  }
  const iso = isoDateTime.exec(text);
  if (!iso || !isCalendarDate(text.slice(0, 10))) return undefined;
  // Date-only forms are UTC in JavaScript already; a date-time without an offset would be local time.
  const t = Date.parse(iso[1] === undefined && text.length > 10 ? `${text}Z` : text);
  return Number.isNaN(t) ? undefined : t;
}
