import { httpError, tryParseSince } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';

/** Most items one page of a public list holds, whatever `limit` asks for (the public API's cap, in the plugin's README). */
export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 50;

/**
 * Most items a list skips by `offset`: the database reads every skipped row, so a deep offset costs as much as the
 * pages before it. Deeper, lists that have them page by cursor (`before`), as fast at any depth.
 */
export const MAX_OFFSET = 10_000;

/** The `limit` and `offset` parameters every list takes. */
export const pageProperties = {
  limit: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT, description: `Page size; at most ${MAX_LIMIT} (a larger value is answered with ${MAX_LIMIT}).` },
  offset: {
    type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0,
    description: `Items to skip, at most ${MAX_OFFSET.toLocaleString('en-US')} (400 past it); page deeper by cursor where the list has one.`,
  },
};

/** A text filter matched against stored values no longer than `maxLength` characters (longer could never match). */
export const filterText = (maxLength: number, description?: string) => ({ type: 'string', maxLength, ...(description ? { description } : {}) });

export const sinceProperty = {
  type: 'string', description: 'Epoch ms, an ISO 8601 date-time (UTC without an offset), or a duration back from now (15m, 24h, 7d).',
};

/** The page a validated query asks for, with `limit` capped. */
export function pageOf(query: Record<string, unknown>): { limit: number; offset: number } {
  return { limit: Math.min(Number(query.limit ?? DEFAULT_LIMIT), MAX_LIMIT), offset: Number(query.offset ?? 0) };
}

/** `since` as epoch ms (the SDK's `tryParseSince`: digits, ISO 8601, or a duration back from now); 400 otherwise. */
export function parseSince(value: string, now = Date.now()): number {
  const since = tryParseSince(value, now);
  if (since !== undefined) return since;
  throw httpError(LlmErrors.SINCE,
    `since must be epoch milliseconds, an ISO 8601 date-time (2024-05-01T12:00:00Z) or a duration back from now (15m, 2h, 7d); got ${JSON.stringify(value)}`);
}
