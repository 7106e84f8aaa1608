import { tryParseDuration } from '@vigil/plugin-sdk';
import { badQuery, CaptureErrors } from './errors.js';

/** The named ranges of overview and usage, each with the step of its chart (60, 96 and 168 points). */
export const RANGES = { '1h': { ms: 3_600_000, step: 60_000 }, '24h': { ms: 86_400_000, step: 900_000 }, '7d': { ms: 604_800_000, step: 3_600_000 } } as const;
export type RangeName = keyof typeof RANGES;
export const rangeQuery = { type: 'string', enum: Object.keys(RANGES), default: '24h', description: 'One of 1h, 24h, 7d, ending now.' };

/** [from, to) in epoch ms for a named range ending now, with the chart step. */
export function resolveRange(name: string, now = Date.now()): { from: number; to: number; step: number } {
  const r = Object.prototype.hasOwnProperty.call(RANGES, name) ? RANGES[name as RangeName] : undefined;
  if (!r) throw badQuery(CaptureErrors.RANGE, `range must be one of ${Object.keys(RANGES).join(', ')}; got ${JSON.stringify(name)}`);
  return { from: now - r.ms, to: now, step: r.step };
}

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
 * `since` as epoch ms (digits), an ISO 8601 date or date-time (read as UTC when it has no offset), or a duration
 * back from now in the config's syntax (`90s`, `15m`, `2h`, `7d`, `1h30m`). Anything else is a 400.
 */
export function parseSince(value: string, now = Date.now()): number {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  if (/^[\d.]+[a-z]/.test(text)) {
    const ms = tryParseDuration(text);
    if (ms !== undefined) return now - ms;
  }
  const iso = isoDateTime.exec(text);
  if (iso && isCalendarDate(text.slice(0, 10))) {
    // Date-only forms are UTC in JavaScript already; a date-time without an offset would be local time.
    const t = Date.parse(iso[1] === undefined && text.length > 10 ? `${text}Z` : text);
    if (!Number.isNaN(t)) return t;
  }
  throw badQuery(CaptureErrors.SINCE,
    `since must be epoch milliseconds, an ISO 8601 date-time (2024-05-01T12:00:00Z) or a duration back from now (15m, 2h, 7d); got ${JSON.stringify(value)}`);
}
