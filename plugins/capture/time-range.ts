import { HttpError } from '@vigil/plugin-sdk';

export const RANGES = { '1h': { ms: 3_600_000, step: 60_000 }, '24h': { ms: 86_400_000, step: 900_000 }, '7d': { ms: 604_800_000, step: 3_600_000 } } as const;
export type RangeName = keyof typeof RANGES;
export const rangeQuery = { type: 'string', enum: Object.keys(RANGES), default: '24h' };

/** [from, to) in epoch ms for a named range ending now, with the chart step. */
export function resolveRange(name: string, now = Date.now()): { from: number; to: number; step: number } {
  const r = RANGES[name as RangeName];
  if (!r) throw new HttpError(400, 'VIGIL_ERR_GATEWAY_RANGE', `range must be one of ${Object.keys(RANGES).join(', ')}`);
  return { from: now - r.ms, to: now, step: r.step };
}

/** `since` as epoch ms, an ISO date-time, or a relative duration back from now (15m, 2h, 7d). */
export function parseSince(value: string, now = Date.now()): number {
  if (/^\d+$/.test(value)) return Number(value);
  const rel = /^(\d+)(s|m|h|d)$/.exec(value);
  if (rel) return now - Number(rel[1]) * { s: 1e3, m: 6e4, h: 36e5, d: 864e5 }[rel[2] as 's' | 'm' | 'h' | 'd'];
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new HttpError(400, 'VIGIL_ERR_GATEWAY_SINCE', `since must be epoch ms, an ISO date-time or a duration like 15m; got ${JSON.stringify(value)}`);
  return t;
}
