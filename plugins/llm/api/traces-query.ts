import { HttpError, type SqlValue, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import { pageOf, pageProperties, parseSince, sinceProperty } from './query-params.js';

/** A keyset cursor: `<created_at epoch ms>.<trace id>`, the position of one trace in the newest-first order. */
const CURSOR = /^(\d{1,15})\.([0-9a-zA-Z-]{1,64})$/;

/**
 * The query of a trace list, the same for the public API (`/api/v1/traces`) and the dashboard
 * (`/api/llm/projects/:project/traces`).
 */
export const traceListQuery = {
  type: 'object',
  properties: {
    ...pageProperties,
    since: sinceProperty,
    status: { enum: ['ok', 'error'] },
    model: { type: 'string', description: 'Exact model name as sent.' },
    template: { type: 'string', description: 'Prompt template name.' },
    version: { type: 'integer', minimum: 1, description: 'Prompt version number (with template).' },
    user_id: { type: 'string' },
    session_id: { type: 'string' },
    tag: { type: 'string', description: 'Traces carrying this tag.' },
    before: { type: 'string', pattern: CURSOR.source, description: 'Keyset paging: traces older than this cursor (`<created_at ms>.<id>` of the last trace of a page).' },
    after: { type: 'string', pattern: CURSOR.source, description: 'Keyset paging: traces newer than this cursor (`<created_at ms>.<id>` of the first trace of a page), still newest first.' },
  },
};

/** `LIKE` text matching `value` literally (`%`, `_` and the escape itself escaped with `\`). */
const likeLiteral = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function cursorOf(value: string): [number, string] {
  const m = CURSOR.exec(value);
  if (!m) throw new HttpError(400, LlmErrors.CURSOR, `a cursor is <created_at ms>.<trace id>; got ${JSON.stringify(value)}`);
  return [Number(m[1]), m[2].toLowerCase()];
}

/** The filters of a trace list as SQL, always within the project. */
function whereOf(projectId: string, q: Record<string, unknown>): { sql: string; params: SqlValue[] } {
  const parts = ['project_id = ?'];
  const params: SqlValue[] = [projectId];
  const equal = (column: string, value: unknown) => {
    if (value === undefined) return;
    parts.push(`${column} = ?`);
    params.push(value as SqlValue);
  };
  if (typeof q.since === 'string') { parts.push('created_at >= ?'); params.push(parseSince(q.since)); }
  equal('status', q.status);
  equal('model', q.model);
  equal('template', q.template);
  equal('version', q.version);
  equal('user_id', q.user_id);
  equal('session_id', q.session_id);
  if (typeof q.tag === 'string') {
    // Tags are stored as their JSON array; a tag matches as its JSON string, quotes included, so `a` never matches `ab`.
    parts.push("tags LIKE ? ESCAPE '\\'");
    params.push(`%${likeLiteral(JSON.stringify(q.tag))}%`);
  }
  if (typeof q.before === 'string') {
    const [time, id] = cursorOf(q.before);
    parts.push('(created_at < ? OR (created_at = ? AND id < ?))');
    params.push(time, time, id);
  } else if (typeof q.after === 'string') {
    const [time, id] = cursorOf(q.after);
    parts.push('(created_at > ? OR (created_at = ? AND id > ?))');
    params.push(time, time, id);
  }
  return { sql: parts.join(' AND '), params };
}

export interface TracePage {
  data: Record<string, unknown>[];
  limit: number;
  offset: number;
}

/**
 * A page of the project's traces, newest first, filtered as the query says (already validated against
 * `traceListQuery`). With `after`, the page is the `limit` traces just newer than the cursor, still newest first.
 */
export async function listTraces(store: Store, projectId: string, query: Record<string, unknown>): Promise<TracePage> {
  const { limit, offset } = pageOf(query);
  const where = whereOf(projectId, query);
  const traces = store.table('traces');
  const newer = typeof query.after === 'string' && typeof query.before !== 'string';
  const rows = await store.query<{ trace: string }>(
    `SELECT trace FROM ${traces} WHERE ${where.sql} ORDER BY created_at ${newer ? 'ASC' : 'DESC'}, id ${newer ? 'ASC' : 'DESC'} LIMIT ? OFFSET ?`,
    [...where.params, limit, offset]);
  const data = rows.map((r) => JSON.parse(r.trace) as Record<string, unknown>);
  return { data: newer ? data.reverse() : data, limit, offset };
}

/** One trace of the project; 404 when the project has none with this id. */
export async function getTrace(store: Store, projectId: string, id: string): Promise<Record<string, unknown>> {
  const rows = await store.query<{ trace: string }>(`SELECT trace FROM ${store.table('traces')} WHERE project_id = ? AND id = ?`, [projectId, id.toLowerCase()]);
  if (!rows.length) {
    throw new HttpError(404, LlmErrors.TRACE_NOT_FOUND, `the project has no stored trace ${JSON.stringify(id)} (not sent, sampled out, not persisted yet, or past retention)`);
  }
  return JSON.parse(rows[0].trace) as Record<string, unknown>;
}

/** The project that holds a trace with this id, by its id alone (the dashboard's record search), or null. */
export async function findTraceProject(store: Store, id: string): Promise<string | null> {
  const rows = await store.query<{ project_id: string }>(`SELECT project_id FROM ${store.table('traces')} WHERE id = ? LIMIT 1`, [id.toLowerCase()]);
  return rows[0]?.project_id ?? null;
}
