/** Most items one page of a gateway list holds, whatever `limit` asks for. */
export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 50;

/** Rows a list skips by `offset` at most: the database reads each skipped row. Deeper, the records page by cursor. */
export const MAX_OFFSET = 10_000;

/** The `limit` and `offset` parameters every gateway list takes. */
export const pageProperties = {
  limit: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT, description: `Page size; at most ${MAX_LIMIT} (a larger value is answered with ${MAX_LIMIT}).` },
  offset: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0, description: `Items to skip, at most ${MAX_OFFSET.toLocaleString('en-US')} (400 past it).` },
};

/** The page a validated query asks for, with `limit` capped. */
export function pageOf(query: Record<string, unknown>): { limit: number; offset: number } {
  return { limit: Math.min(Number(query.limit ?? DEFAULT_LIMIT), MAX_LIMIT), offset: Number(query.offset ?? 0) };
}
