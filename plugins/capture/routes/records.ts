import type { HttpRoutes, SqlValue, Store } from '@vigil/plugin-sdk';
import { badQuery, CaptureErrors, recordNotFound } from '../errors.js';
import { parseSince } from '../time-range.js';
import { pageOf, pageProperties } from './page-query.js';

/** A position in the newest-first list: a record's time and id, `<epoch ms>.<id>` (the first dot splits them). */
const CURSOR = /^([0-9]{1,15})\.([\x21-\x7e]{1,200})$/;
const cursorProperty = (description: string) => ({ type: 'string', pattern: CURSOR.source, description });

const listQuery = {
  type: 'object',
  properties: {
    route: { type: 'string', description: 'A rule glob (match.path) the record matched.' },
    status: { type: 'string', pattern: '^([1-5]xx|[1-5][0-9]{2}|0)$', description: 'An exact status (404), a class (5xx), or 0 for exchanges the upstream never answered.' },
    since: { type: 'string', description: 'Epoch ms, an ISO 8601 date-time (UTC without an offset), or a duration back from now (15m, 24h, 7d).' },
    before: cursorProperty('The `next` cursor of a page: the records just older than it. As fast at any depth, and records stored meanwhile do not shift the page.'),
    after: cursorProperty('The `prev` cursor of a page: the records just newer than it (still listed newest first).'),
    ...pageProperties,
  },
  // Label names follow the policy's label syntax, so they can be spliced into a JSON path without quoting issues.
  patternProperties: { '^label\\.[a-zA-Z_][a-zA-Z0-9_]*$': { type: 'string', description: 'label.<name>=<value>: records whose label has that value.' } },
};

interface Cursor { time: number; id: string }

const cursorText = (r: Cursor): string => `${r.time}.${r.id}`;
function parseCursor(text: string): Cursor {
  const m = CURSOR.exec(text)!;
  return { time: Number(m[1]), id: m[2] };
}

/**
 * Filters of GET /api/gateway/records, as SQL terms. Route and label filters first look for their JSON text in the
 * stored column (`instr`/`strpos` on the exact serialisation `recordRow` wrote), which is cheap, and parse the JSON
 * only to confirm; on SQLite both columns are in the time index, so a record that does not match is never read.
 */
function filterTerms(store: Store, q: Record<string, unknown>): { parts: string[]; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  const pg = store.dialect === 'postgres';
  if (typeof q.route === 'string') {
    // Exact membership in the JSON array of matched globs: case-sensitive, and `_` or `%` in a glob are literal.
    if (pg) { parts.push('strpos(route, ?) > 0 AND route::jsonb @> ?::jsonb'); params.push(JSON.stringify(q.route), JSON.stringify([q.route])); }
    else { parts.push('instr(route, ?) > 0 AND EXISTS (SELECT 1 FROM json_each(route) WHERE json_each.value = ?)'); params.push(JSON.stringify(q.route), q.route); }
  }
  if (typeof q.status === 'string') {
    if (q.status.endsWith('xx')) {
      const c = Number(q.status[0]) * 100;
      parts.push('status >= ? AND status < ?');
      params.push(c, c + 100);
    } else { parts.push('status = ?'); params.push(Number(q.status)); }
  }
  if (typeof q.since === 'string') { parts.push('time >= ?'); params.push(parseSince(q.since)); }
  for (const [key, value] of Object.entries(q)) {
    if (!key.startsWith('label.')) continue;
    const name = key.slice(6);
    const text = `${JSON.stringify(name)}:${JSON.stringify(String(value))}`;
    if (pg) { parts.push('strpos(labels, ?) > 0 AND (labels::jsonb ->> ?) = ?'); params.push(text, name, String(value)); }
    else { parts.push('instr(labels, ?) > 0 AND json_extract(labels, ?) = ?'); params.push(text, `$."${name}"`, String(value)); }
  }
  return { parts, params };
}

/** The list's response, spliced from the stored JSON texts: records are stored as the JSON the API answers with. */
function pageJson(records: readonly string[], page: { limit: number; offset: number; next: string | null; prev: string | null }): Buffer {
  return Buffer.from(`{"data":[${records.join(',')}],"limit":${page.limit},"offset":${page.offset},"next":${JSON.stringify(page.next)},"prev":${JSON.stringify(page.prev)}}`);
}

export function registerRecordRoutes(http: HttpRoutes, store: Store): void {
  const records = store.table('records');
  http.route({
    method: 'GET', path: '/api/gateway/records', tags: ['gateway'],
    summary: 'Governed records, newest first, with filters',
    description: '`next` is the cursor of the page after this one (older records; null at the end), `prev` of the page before it (newer records; null on the newest page). Pass one as `before=` or `after=`.',
    query: listQuery,
    async handler(ctx) {
      const { limit, offset } = pageOf(ctx.query);
      const before = typeof ctx.query.before === 'string' ? parseCursor(ctx.query.before) : null;
      const after = typeof ctx.query.after === 'string' ? parseCursor(ctx.query.after) : null;
      if ([before, after, offset > 0 ? offset : null].filter((x) => x !== null).length > 1) {
        throw badQuery(CaptureErrors.PAGE, 'before, after and offset each choose the page: give one of them');
      }
      const { parts, params } = filterTerms(store, ctx.query);
      // Keyset: `time <=` bounds the index range, the tie-break on id keeps records of the same millisecond in order.
      if (before) { parts.push('time <= ? AND (time < ? OR id < ?)'); params.push(before.time, before.time, before.id); }
      if (after) { parts.push('time >= ? AND (time > ? OR id > ?)'); params.push(after.time, after.time, after.id); }
      // Newer than `after`: the oldest of them, read upwards, so that the page ends right above the cursor.
      const direction = after ? 'ASC' : 'DESC';
      // One row more than the page tells whether another page follows.
      const rows = await store.query<{ time: number | string; id: string; record: string }>(
        `SELECT time, id, record FROM ${records} ${parts.length ? `WHERE ${parts.join(' AND ')}` : ''} ` +
        `ORDER BY time ${direction}, id ${direction} LIMIT ? OFFSET ?`, [...params, limit + 1, offset]);
      const more = rows.length > limit;
      if (more) rows.pop();
      if (after) rows.reverse();
      const at = (i: number) => (rows[i] ? cursorText({ time: Number(rows[i].time), id: rows[i].id }) : null);
      const next = after ? at(rows.length - 1) : more ? at(rows.length - 1) : null;
      const prev = after ? (more ? at(0) : null) : before || offset > 0 ? at(0) : null;
      ctx.type = 'application/json';
      return pageJson(rows.map((r) => r.record), { limit, offset, next, prev });
    },
  });
  http.route({
    method: 'GET', path: '/api/gateway/records/:id', tags: ['gateway'],
    summary: 'One governed record',
    async handler(ctx) {
      const rows = await store.query<{ record: string }>(`SELECT record FROM ${records} WHERE id = ?`, [ctx.params.id]);
      if (!rows.length) throw recordNotFound(ctx.params.id);
      ctx.type = 'application/json';
      return Buffer.from(rows[0].record);
    },
  });
}
