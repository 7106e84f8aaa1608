import { HttpError, tryParseDuration } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';

/** Most items one page of a public list holds, whatever `limit` asks for (the seed's cap). */
export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 50;

/** The `limit` and `offset` parameters every list takes. */
export const pageProperties = {
  limit: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT, description: `Page size; at most ${MAX_LIMIT} (a larger value is answered with ${MAX_LIMIT}).` },
  offset: { type: 'integer', minimum: 0, default: 0, description: 'Items to skip.' },
};

export const sinceProperty = {
  type: 'string', description: 'Epoch ms, an ISO 8601 date-time (UTC without an offset), or a duration back from now (15m, 24h, 7d).',
};

/** The page a validated query asks for, with `limit` capped. */
export function pageOf(query: Record<string, unknown>): { limit: number; offset: number } {
  return { limit: Math.min(Number(query.limit ?? DEFAULT_LIMIT), MAX_LIMIT), offset: Number(query.offset ?? 0) };
}

const isoDateTime = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

/** `since` as epoch ms: digits, an ISO 8601 date or date-time (UTC without an offset), or a duration back from now. */
export function parseSince(value: string, now = Date.now()): number {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  if (/^[\d.]+[a-z]/.test(text)) {
    const ms = tryParseDuration(text);
    if (ms !== undefined) return now - ms;
  }
  const iso = isoDateTime.exec(text);
  if (iso) {
    const t = Date.parse(iso[1] === undefined && text.length > 10 ? `${text}Z` : text);
    if (!Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === text.slice(0, 10) || (!Number.isNaN(t) && iso[1] !== undefined)) return t;
  }
  throw new HttpError(400, LlmErrors.SINCE,
    `since must be epoch milliseconds, an ISO 8601 date-time (2024-05-01T12:00:00Z) or a duration back from now (15m, 2h, 7d); got ${JSON.stringify(value)}`);
}
