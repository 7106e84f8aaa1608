import { httpError, type RouteContext, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import { MAX_OFFSET } from './query-params.js';
import { groupSummary, isoOf, listGroups, type GroupRow } from './trace-groups.js';
import { MAX_PAGE_BYTES } from './traces-query.js';

/** Turns one page of a session's replay holds at most. */
export const MAX_TURNS = 100;

/** The query of a session's replay: turns oldest first, paged by offset. */
export const sessionTurnsQuery = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, default: 50, description: `Turns per page; at most ${MAX_TURNS} (a larger value is answered with ${MAX_TURNS}).` },
    offset: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Turns to skip, oldest first.' },
  },
};

export const SESSION_DESCRIPTION = `The session's turns in the order they were made (oldest first), each the stored trace with its cost and latency. `
  + `A page holds at most ${MAX_TURNS} turns and 8 MB of stored traces (one turn always): \`truncated\` says the bytes ended it; `
  + '`next_offset` is where the next page starts (null at the end). The figures cover every turn of the session.';

/** A session in a list or on its page. */
export function sessionView(r: GroupRow) {
  return {
    session_id: r.key, user_id: r.other as string | null, first_seen: isoOf(r.first_at), last_seen: isoOf(r.last_at),
    turns: r.traces, errors: r.errors, cost_usd: r.cost_usd, total_tokens: r.total_tokens, latency_ms: r.latency_ms, avg_latency_ms: r.avg_latency_ms,
  };
}

/** A page of the project's sessions (a validated `groupListQuery`), optionally of one user. */
export async function listSessions(store: Store, projectId: string, query: Record<string, unknown>) {
  const byUser = typeof query.user_id === 'string' ? { sql: 'user_id = ?', params: [query.user_id] } : undefined;
  const page = await listGroups(store, projectId, 'session_id', query, byUser);
  return { data: page.rows.map(sessionView), total: page.total, limit: page.limit, offset: page.offset, from: isoOf(page.from), to: isoOf(page.to) };
}

/**
 * One session: its figures and one page of its turns, oldest first, as a JSON body. The stored trace texts are
 * spliced in as they are (never parsed here); ids and sizes are read first, then the texts that fit MAX_PAGE_BYTES.
 */
export async function sessionReplay(store: Store, projectId: string, sessionId: string, query: Record<string, unknown>, ctx: RouteContext): Promise<Buffer> {
  const summary = await groupSummary(store, projectId, 'session_id', sessionId);
  if (!summary) {
    throw httpError(LlmErrors.SESSION_NOT_FOUND, `the project has no stored trace with session_id ${JSON.stringify(sessionId)} (not sent, not persisted yet, or past retention)`);
  }
  const limit = Math.min(Number(query.limit ?? 50), MAX_TURNS);
  const offset = Number(query.offset ?? 0);
  const traces = store.table('traces');
  const rows = await store.query<{ id: string; bytes: number | string }>(
    `SELECT id, octet_length(trace) AS bytes FROM ${traces} WHERE project_id = ? AND session_id = ? ORDER BY created_at ASC, id ASC LIMIT ? OFFSET ?`,
    [projectId, sessionId, limit + 1, offset]);
  const more = rows.length > limit;
  if (more) rows.pop();
  let kept = 0;
  let bytes = 0;
  while (kept < rows.length && (kept === 0 || bytes + Number(rows[kept].bytes) <= MAX_PAGE_BYTES)) bytes += Number(rows[kept++].bytes);
  const shown = rows.slice(0, kept);
  const texts = new Map<string, string>();
  if (shown.length) {
    const found = await store.query<{ id: string; trace: string }>(
      `SELECT id, trace FROM ${traces} WHERE project_id = ? AND id IN (${shown.map(() => '?').join(', ')})`, [projectId, ...shown.map((r) => r.id)]);
    for (const r of found) texts.set(r.id, r.trace);
  }
  const turns = shown.filter((r) => texts.has(r.id)).map((r) => texts.get(r.id)!);
  const truncated = kept < rows.length;
  const nextOffset = more || truncated ? offset + kept : null;
  ctx.type = 'application/json';
  return Buffer.from(`{"session":${JSON.stringify(sessionView(summary))},"turns":[${turns.join(',')}],"limit":${limit},"offset":${offset},`
    + `"next_offset":${JSON.stringify(nextOffset)},"truncated":${truncated}}`);
}
