import type { HttpRoutes, SqlValue, Store } from '@vigil/plugin-sdk';
import { recordNotFound } from '../errors.js';
import { parseSince } from '../time-range.js';
import { pageOf, pageProperties } from './page-query.js';

const listQuery = {
  type: 'object',
  properties: {
    route: { type: 'string', description: 'A rule glob (match.path) the record matched.' },
    status: { type: 'string', pattern: '^([1-5]xx|[1-5][0-9]{2}|0)$', description: 'An exact status (404), a class (5xx), or 0 for exchanges the upstream never answered.' },
    since: { type: 'string', description: 'Epoch ms, an ISO 8601 date-time (UTC without an offset), or a duration back from now (15m, 24h, 7d).' },
    ...pageProperties,
  },
  // Label names follow the policy's label syntax, so they can be spliced into a JSON path without quoting issues.
  patternProperties: { '^label\\.[a-zA-Z_][a-zA-Z0-9_]*$': { type: 'string', description: 'label.<name>=<value>: records whose label has that value.' } },
};

/** Filters of GET /api/gateway/records, as SQL. Label filters read the labels JSON per dialect. */
function whereClause(store: Store, q: Record<string, unknown>): { sql: string; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  if (typeof q.route === 'string') {
    // Exact membership in the JSON array of matched globs: case-sensitive, and `_` or `%` in a glob are literal.
    if (store.dialect === 'postgres') { parts.push('route::jsonb @> ?::jsonb'); params.push(JSON.stringify([q.route])); }
    else { parts.push('EXISTS (SELECT 1 FROM json_each(route) WHERE json_each.value = ?)'); params.push(q.route); }
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
    if (store.dialect === 'postgres') { parts.push('(labels::jsonb ->> ?) = ?'); params.push(name, String(value)); }
    else { parts.push('json_extract(labels, ?) = ?'); params.push(`$."${name}"`, String(value)); }
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

export function registerRecordRoutes(http: HttpRoutes, store: Store): void {
  const records = store.table('records');
  http.route({
    method: 'GET', path: '/api/gateway/records', tags: ['gateway'],
    summary: 'Governed records, newest first, with filters',
    query: listQuery,
    async handler(ctx) {
      const { limit, offset } = pageOf(ctx.query);
      const where = whereClause(store, ctx.query);
      const rows = await store.query<{ record: string }>(
        `SELECT record FROM ${records} ${where.sql} ORDER BY time DESC, id DESC LIMIT ? OFFSET ?`, [...where.params, limit, offset]);
      return { data: rows.map((r) => JSON.parse(r.record)), limit, offset };
    },
  });
  http.route({
    method: 'GET', path: '/api/gateway/records/:id', tags: ['gateway'],
    summary: 'One governed record',
    async handler(ctx) {
      const rows = await store.query<{ record: string }>(`SELECT record FROM ${records} WHERE id = ?`, [ctx.params.id]);
      if (!rows.length) throw recordNotFound(ctx.params.id);
      return JSON.parse(rows[0].record);
    },
  });
}
