import { tryParseSince } from '@vigil/plugin-sdk';
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

/**
 * `since` as epoch ms (digits), an ISO 8601 date or date-time (read as UTC when it has no offset), or a duration
 * back from now in the config's syntax (`90s`, `15m`, `2h`, `7d`, `1h30m`), read as every list of the API reads it
 * (the SDK's tryParseSince). Anything else is a 400.
 */
export function parseSince(value: string, now = Date.now()): number {
  const since = tryParseSince(value, now);
  if (since !== undefined) return since;
  throw badQuery(CaptureErrors.SINCE,
    `since must be epoch milliseconds, an ISO 8601 date-time (2024-05-01T12:00:00Z) or a duration back from now (15m, 2h, 7d); got ${JSON.stringify(value)}`);
}
