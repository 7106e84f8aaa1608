import { HttpError, type HttpRoutes, type SqlValue, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { pageOf, pageProperties, parseSince, sinceProperty } from './query-params.js';

const listQuery = {
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
  },
};

/** `LIKE` text matching `value` literally (`%`, `_` and the escape itself escaped with `\`). */
const likeLiteral = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The filters of GET /api/v1/traces as SQL, always within the project. */
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
  return { sql: parts.join(' AND '), params };
}

export function registerTraceRoutes(http: HttpRoutes, store: Store): void {
  const traces = store.table('traces');
  http.route({
    method: 'GET', path: '/api/v1/traces', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Recent traces of the key\'s project, newest first, each with its prompt template and version',
    query: listQuery,
    async handler(ctx) {
      const { limit, offset } = pageOf(ctx.query);
      const where = whereOf(projectOf(ctx).id, ctx.query);
      const rows = await store.query<{ trace: string }>(
        `SELECT trace FROM ${traces} WHERE ${where.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [...where.params, limit, offset]);
      return { data: rows.map((r) => JSON.parse(r.trace)), limit, offset };
    },
  });
  http.route({
    method: 'GET', path: '/api/v1/traces/:id', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'One trace of the key\'s project',
    async handler(ctx) {
      const id = ctx.params.id.toLowerCase();
      const rows = await store.query<{ trace: string }>(`SELECT trace FROM ${traces} WHERE project_id = ? AND id = ?`, [projectOf(ctx).id, id]);
      if (!rows.length) {
        throw new HttpError(404, LlmErrors.TRACE_NOT_FOUND, `the project has no stored trace ${JSON.stringify(ctx.params.id)} (not sent, sampled out, not persisted yet, or past retention)`);
      }
      return JSON.parse(rows[0].trace);
    },
  });
}
