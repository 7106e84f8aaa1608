import { httpError, type RouteContext, type SqlValue, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import { filterText, pageOf, pageProperties, parseSince, sinceProperty } from './query-params.js';
import { MAX_SEARCH_CHARS, parseSearch, SEARCH_DESCRIPTION, searchCondition } from './trace-search-query.js';

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
    until: { ...sinceProperty, description: 'Traces before this time (exclusive); written as `since` is.' },
    q: { type: 'string', maxLength: MAX_SEARCH_CHARS, description: SEARCH_DESCRIPTION },
    status: { enum: ['ok', 'error'] },
    // As long as the item schema lets the stored values be.
    model: filterText(256, 'Exact model name as sent.'),
    template: filterText(256, 'Prompt template name.'),
    version: { type: 'integer', minimum: 1, description: 'Prompt version number (with template).' },
    user_id: filterText(256),
    session_id: filterText(256),
    tag: filterText(128, 'Traces carrying this tag.'),
    before: { type: 'string', pattern: CURSOR.source, description: 'Keyset paging: traces older than this cursor (`<created_at ms>.<id>` of the last trace of a page).' },
    after: { type: 'string', pattern: CURSOR.source, description: 'Keyset paging: traces newer than this cursor (`<created_at ms>.<id>` of the first trace of a page), still newest first.' },
  },
};

/** `LIKE` text matching `value` literally (`%`, `_` and the escape itself escaped with `\`). */
const likeLiteral = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function cursorOf(value: string): [number, string] {
  const m = CURSOR.exec(value);
  if (!m) throw httpError(LlmErrors.CURSOR, `a cursor is <created_at ms>.<trace id>; got ${JSON.stringify(value)}`);
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
  if (typeof q.until === 'string') { parts.push('created_at < ?'); params.push(parseSince(q.until)); }
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

/**
 * Bytes of stored trace JSON one page holds at most; a page always holds one trace, whatever its size. Without it a
 * page of 200 traces of a few MB each would sit on the heap whole; with it the rest comes with the next page.
 */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;
const MAX_PAGE_BYTES_TEXT = '8 MB';

/** What the trace lists say of their bounds, for the API listing. */
export const TRACE_LIST_DESCRIPTION = '`next` is the `before` cursor of the page after this one (null at the end). A page holds at most '
  + `${MAX_PAGE_BYTES_TEXT} of stored traces (one trace always): \`truncated\` is true when that, not \`limit\`, ended it. `
  + '`offset` goes to 10,000 at most: page deeper with `before`. Text filters are as long as the stored values can be.';

export interface TracePage {
  /** The traces' stored JSON texts, as the API answers them: never parsed here. */
  data: string[];
  limit: number;
  offset: number;
  /** The `before` cursor of the page after this one (older traces); null when there is none. */
  next: string | null;
  /** True when MAX_PAGE_BYTES ended the page before `limit`. */
  truncated: boolean;
}

const cursorText = (r: { created_at: number | string; id: string }) => `${Number(r.created_at)}.${r.id}`;

/**
 * A page of the project's traces, newest first, filtered as the query says (already validated against
 * `traceListQuery`). With `after`, the page is the `limit` traces just newer than the cursor, still newest first.
 * The page is read in two steps: the matching rows' ids and sizes (no trace text), then the texts of those that fit
 * MAX_PAGE_BYTES.
 */
export async function listTraces(store: Store, projectId: string, query: Record<string, unknown>): Promise<TracePage> {
  const { limit, offset } = pageOf(query);
  const where = whereOf(projectId, query);
  if (typeof query.q === 'string') {
    const search = searchCondition(store.dialect, store.table('traces_search'), parseSearch(query.q));
    where.sql += ` AND ${search.sql}`;
    where.params.push(...search.params);
  }
  const traces = store.table('traces');
  const newer = typeof query.after === 'string' && typeof query.before !== 'string';
  const dir = newer ? 'ASC' : 'DESC';
  // One row past the page tells whether older traces follow.
  const rows = await store.query<{ id: string; created_at: number | string; bytes: number | string }>(
    `SELECT id, created_at, octet_length(trace) AS bytes FROM ${traces} WHERE ${where.sql} ORDER BY created_at ${dir}, id ${dir} LIMIT ? OFFSET ?`,
    [...where.params, limit + 1, offset]);
  const more = rows.length > limit;
  if (more) rows.pop();
  if (newer) rows.reverse();
  // Newest first now; with `after`, the traces nearest the cursor are the oldest ones, so the page keeps those.
  let kept = 0;
  let bytes = 0;
  const order = newer ? [...rows].reverse() : rows;
  while (kept < order.length && (kept === 0 || bytes + Number(order[kept].bytes) <= MAX_PAGE_BYTES)) bytes += Number(order[kept++].bytes);
  const shown = newer ? rows.slice(rows.length - kept) : rows.slice(0, kept);
  const texts = new Map<string, string>();
  if (shown.length) {
    const found = await store.query<{ id: string; trace: string }>(
      `SELECT id, trace FROM ${traces} WHERE project_id = ? AND id IN (${shown.map(() => '?').join(', ')})`, [projectId, ...shown.map((r) => r.id)]);
    for (const r of found) texts.set(r.id, r.trace);
  }
  // A trace deleted between the two reads (retention) is left out.
  const data = shown.filter((r) => texts.has(r.id));
  const truncated = kept < rows.length;
  const last = data[data.length - 1];
  return {
    data: data.map((r) => texts.get(r.id)!),
    limit,
    offset,
    next: last && (newer || more || truncated) ? cursorText(last) : null,
    truncated,
  };
}

/** A page as the response body: the stored texts spliced into the list, never parsed and written again. */
export function tracePageJson(page: TracePage, ctx: RouteContext): Buffer {
  ctx.type = 'application/json';
  return Buffer.from(`{"data":[${page.data.join(',')}],"limit":${page.limit},"offset":${page.offset},"next":${JSON.stringify(page.next)},"truncated":${page.truncated}}`);
}

/** One trace of the project, as its stored JSON text; 404 when the project has none with this id. */
export async function getTraceJson(store: Store, projectId: string, id: string): Promise<string> {
  const rows = await store.query<{ trace: string }>(`SELECT trace FROM ${store.table('traces')} WHERE project_id = ? AND id = ?`, [projectId, id.toLowerCase()]);
  if (!rows.length) {
    throw httpError(LlmErrors.TRACE_NOT_FOUND, `the project has no stored trace ${JSON.stringify(id)} (not sent, sampled out, not persisted yet, or past retention)`);
  }
  return rows[0].trace;
}

/** `json` as a JSON response body, as it is. */
export function jsonBody(json: string, ctx: RouteContext): Buffer {
  ctx.type = 'application/json';
  return Buffer.from(json);
}

/** The project that holds a trace with this id, by its id alone (the dashboard's record search), or null. */
export async function findTraceProject(store: Store, id: string): Promise<string | null> {
  const rows = await store.query<{ project_id: string }>(`SELECT project_id FROM ${store.table('traces')} WHERE id = ? LIMIT 1`, [id.toLowerCase()]);
  return rows[0]?.project_id ?? null;
}
