// The database browser's API, under /api/db. Every route is for the instance owner (the default for changes, and
// declared for the reads: rows of any database are as sensitive as a shell). Every answer is bounded: the table list
// by MAX_TABLES, a page by MAX_PAGE_ROWS, a query by its row cap, its timeout and a byte budget.
import { Readable } from 'node:stream';
import { CSV_BODY, closedObject, csvCell, httpError, type HttpRoutes, type JsonSchema, type PluginAuditEntry, type RouteContext } from '@vigil/plugin-sdk';
import { allowedSqlitePath, viewOf, type ConnectionChange, type ConnectionInput, type ConnectionStore, type SavedConnection } from './connection-store.js';
import { DEFAULT_PORTS, type EngineCache } from './engine-cache.js';
import { badConnection, DbBrowserErrors } from './errors.js';
import {
  columnList, connectionChange, connectionInput, connectionList, connectionView, queryInput, queryResult, rowsPage, tableList, tableQuery,
} from './response-schemas.js';
import { scanStatement } from './statement-scan.js';
import { MAX_PAGE_ROWS, type QueryResult } from './types.js';

export interface DbRouteDeps {
  connections: ConnectionStore;
  engines: EngineCache;
  roots: string[];
  limits: { row_cap: number; max_row_cap: number; statement_timeout_ms: number; max_statement_timeout_ms: number };
  audit(entry: PluginAuditEntry): Promise<void>;
}

const TAGS = ['database'];
const OWNER = 'owner' as const;
const noQuery = { type: 'object', properties: {} };

function checkInput(b: ConnectionInput): void {
  if (b.kind === 'sqlite') {
    if (!b.path) throw badConnection('a SQLite connection needs `path`, the database file');
    if (b.host || b.port || b.database || b.user || b.password || b.ssl) throw badConnection('a SQLite connection takes `path` only, not host, port, database, user, password or ssl');
  } else {
    const server = b.kind === 'mysql' ? 'MariaDB/MySQL' : 'PostgreSQL';
    if (b.path) throw badConnection(`a ${server} connection takes host, port, database and user, not \`path\``);
    for (const key of ['host', 'database', 'user'] as const) if (!b[key]) throw badConnection(`a ${server} connection needs \`${key}\``);
  }
}

/** The statement editor's CSV: a header of column names, then one line per row; cut results end where the JSON would. */
function* resultCsv(r: QueryResult): Generator<string> {
  yield `${r.columns.map((c) => csvCell(c.name)).join(',')}\r\n`;
  for (const row of r.rows) yield `${row.map(csvCell).join(',')}\r\n`;
}

export function registerDbRoutes(http: HttpRoutes, d: DbRouteDeps): void {
  const engineFor = async (id: string) => {
    const c = await d.connections.get(id);
    return { c, engine: await d.engines.engineOf(c) };
  };

  http.route({
    method: 'GET', path: '/api/db/connections', tags: TAGS, role: OWNER,
    summary: 'The saved database connections (passwords never included), the allowed SQLite folders and the query limits',
    query: noQuery,
    response: connectionList,
    handler: async () => ({
      connections: (await d.connections.list()).map(viewOf), roots: d.roots, limits: { ...d.limits, page_rows: MAX_PAGE_ROWS },
    }),
  });

  http.route({
    method: 'POST', path: '/api/db/connections', status: 201, tags: TAGS,
    summary: 'Save a connection after checking it opens: a SQLite file under dbbrowser.roots, or a PostgreSQL, MariaDB or MySQL server that accepts the login',
    body: connectionInput,
    response: connectionView,
    async handler(ctx) {
      const b = ctx.request.body as ConnectionInput;
      checkInput(b);
      const input: ConnectionInput = b.kind === 'sqlite' ? { ...b, path: await allowedSqlitePath(b.path!, d.roots) } : { ...b, port: b.port ?? DEFAULT_PORTS[b.kind] };
      const draft: SavedConnection = {
        id: 'draft', name: input.name, kind: input.kind, path: input.path ?? null, host: input.host ?? null, port: input.port ?? null,
        database: input.database ?? null, user: input.user ?? null, sealedPassword: null, ssl: Boolean(input.ssl), writable: false, updatedAt: 0,
      };
      const engine = await d.engines.make(draft, input.password ?? null);
      try {
        await engine.probe();
      } catch (err) {
        throw badConnection(`${input.kind === 'sqlite' ? input.path : `${input.host}:${input.port}/${input.database}`} does not open: ${(err as Error).message}`);
      } finally {
        await engine.close();
      }
      return viewOf(await d.connections.add(input));
    },
  });

  http.route({
    method: 'PATCH', path: '/api/db/connections/:id', tags: TAGS,
    summary: 'Rename a connection, turn its writes on or off, or change or forget its password',
    body: connectionChange,
    response: connectionView,
    async handler(ctx) {
      const changed = await d.connections.change(ctx.params.id, ctx.request.body as ConnectionChange);
      d.engines.forget(changed.id);
      return viewOf(changed);
    },
  });

  http.route({
    method: 'DELETE', path: '/api/db/connections/:id', tags: TAGS,
    summary: 'Delete a saved connection (the database is not touched)',
    query: noQuery,
    response: { type: 'object', additionalProperties: false, required: ['deleted'], properties: { deleted: { type: 'string' } }, title: 'DbConnectionDeleted' },
    async handler(ctx) {
      await d.connections.remove(ctx.params.id);
      d.engines.forget(ctx.params.id);
      return { deleted: ctx.params.id };
    },
  });

  http.route({
    method: 'GET', path: '/api/db/connections/:id/tables', tags: TAGS, role: OWNER,
    summary: 'Schemas, and tables and views with row counts (exact up to 100,000 rows, the server\'s estimate above)',
    query: noQuery,
    response: tableList,
    handler: async (ctx) => (await engineFor(ctx.params.id)).engine.tables(),
  });

  http.route({
    method: 'GET', path: '/api/db/connections/:id/columns', tags: TAGS, role: OWNER,
    summary: 'The columns of a table or view: name, type, nullable, primary key, default',
    query: { ...tableQuery, properties: { schema: tableQuery.properties!.schema, table: tableQuery.properties!.table } },
    response: columnList,
    async handler(ctx) {
      const { schema, table } = ctx.query as { schema: string; table: string };
      return { columns: await (await engineFor(ctx.params.id)).engine.columns(schema, table) };
    },
  });

  http.route({
    method: 'GET', path: '/api/db/connections/:id/rows', tags: TAGS, role: OWNER,
    summary: `A page of a table's rows (at most ${MAX_PAGE_ROWS}), by primary key where there is one; pass each page's \`next\` as \`cursor\``,
    query: tableQuery,
    response: rowsPage,
    async handler(ctx) {
      const q = ctx.query as { schema: string; table: string; limit: number; cursor?: string };
      return (await engineFor(ctx.params.id)).engine.rows(q.schema, q.table, q.limit, q.cursor, d.limits.statement_timeout_ms);
    },
  });

  const runStatement = async (ctx: RouteContext, connectionId = ctx.params.id): Promise<QueryResult & { read_only: boolean; row_cap: number; timeout_ms: number }> => {
    const body = ctx.request.body as { sql: string; max_rows?: number; timeout_ms?: number };
    const scanned = scanStatement(body.sql);
    if (!scanned.text) throw httpError(DbBrowserErrors.STATEMENT, 'the statement is empty');
    if (scanned.multiple) throw httpError(DbBrowserErrors.STATEMENT, 'the editor runs one statement at a time; run the others one by one');
    const cap = Math.min(body.max_rows ?? d.limits.row_cap, d.limits.max_row_cap);
    const timeoutMs = Math.min(body.timeout_ms ?? d.limits.statement_timeout_ms, d.limits.max_statement_timeout_ms);
    const { c, engine } = await engineFor(connectionId);
    const writable = c.writable;
    let status = 200;
    let outcome = '';
    try {
      const result = await engine.query(scanned.text, { cap, timeoutMs, writable });
      outcome = result.affected !== null ? `${result.command ?? 'done'}, ${result.affected} rows changed` : `${result.command ?? 'done'}, ${result.rows.length} rows`;
      return { ...result, read_only: !writable, row_cap: cap, timeout_ms: timeoutMs };
    } catch (err) {
      status = (err as { status?: number }).status ?? 500;
      outcome = `failed: ${(err as Error).message}`;
      throw err;
    } finally {
      // A connection with writes on is audited statement by statement, reads included: a SELECT can call a function
      // that writes, and only the database knows. Read-only connections are not: the database refuses their writes.
      if (writable) {
        await d.audit({
          principal: ctx.state.auth, action: 'database statement', target: `${c.name} (${c.kind})`, status, address: ctx.ip || null,
          detail: `${outcome} | ${scanned.text.replace(/\s+/g, ' ')}`,
        });
      }
    }
  };

  http.route({
    method: 'POST', path: '/api/db/connections/:id/query', tags: TAGS,
    summary: 'Run one statement under a timeout and a row cap; read-only unless the connection has writes on (then audited)',
    body: queryInput,
    bodyLimit: 256 * 1024,
    response: queryResult,
    handler: (ctx) => runStatement(ctx),
  });

  http.route({
    method: 'POST', path: '/api/dbquery', tags: TAGS,
    summary: 'Perch\'s name for the statement editor: the same as POST /api/db/connections/:id/query, the connection named in the body',
    body: closedObject({ ...(queryInput.properties as Record<string, JsonSchema>), connection: { type: 'string', minLength: 1, maxLength: 64, description: 'A saved connection\'s id.' } },
      { title: 'DbQueryByName', optional: ['max_rows', 'timeout_ms'] }),
    bodyLimit: 256 * 1024,
    response: queryResult,
    handler: (ctx) => runStatement(ctx, (ctx.request.body as { connection: string }).connection),
  });

  http.route({
    method: 'POST', path: '/api/db/connections/:id/query.csv', tags: TAGS,
    summary: 'The same statement\'s result as a CSV download (the same row cap; formula-like texts neutralised)',
    body: queryInput,
    bodyLimit: 256 * 1024,
    response: CSV_BODY,
    async handler(ctx) {
      const result = await runStatement(ctx);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Disposition', 'attachment; filename="query.csv"');
      if (result.cut_at !== null) ctx.set('X-Vigil-Cut-At', String(result.cut_at));
      return Readable.from(resultCsv(result));
    },
  });
}
