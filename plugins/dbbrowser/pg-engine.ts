// A PostgreSQL server. Every statement runs in a transaction of its own: `BEGIN READ ONLY` unless the connection has
// writes on, with `SET LOCAL statement_timeout`, ended with ROLLBACK when read-only (so not even a `set_config` of
// the statement outlives it) and COMMIT otherwise. The editor's statement goes over the extended protocol, which takes
// one statement only, so it cannot end our transaction and start another. Queries are read through a cursor in
// batches, so the row cap and the byte budget hold on the server's side of the wire. Values arrive as PostgreSQL's
// own text (no type parsers run on the event loop).
import pg from 'pg';
import { httpError, type HttpError } from '@vigil/plugin-sdk';
import { cellOf, cellWeight } from './cells.js';
import { DbBrowserErrors } from './errors.js';
import { finishPage, planPage } from './page-plan.js';
import { QUERY_KEYWORDS, scanStatement } from './statement-scan.js';
import {
  MAX_RESULT_CHARS, MAX_TABLES, type Cell, type ColumnInfo, type DbEngine, type QueryOptions, type QueryResult, type ResultColumn,
  type RowsPage, type ServerLogin, type TableInfo, type TableList,
} from './types.js';


/** Above this planner estimate a table's count is the estimate (pg_class.reltuples); at or below it, count(*). */
export const EXACT_COUNT_BELOW = 100_000;
/** Rows a cursor is read in. */
const FETCH_BATCH = 500;
const CONNECT_TIMEOUT_MS = 5000;
/** The table list's counting, all tables together, in ms. */
const COUNT_BUDGET_MS = 2000;
const CATALOG_TIMEOUT_MS = 10_000;
/** How long a table's columns are remembered for paging, in ms. */
const COLUMNS_TTL_MS = 30_000;
/** Tables whose columns one engine remembers at most. */
const MAX_CACHED_TABLES = 256;
/** Type names one engine remembers at most. */
const MAX_TYPE_NAMES = 4096;

const RAW_TEXT = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;
const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

interface PgError extends Error { code?: string }

/** The error the browser answers for a server's error; `timeoutMs` names the timeout that cancelled a statement. */
export function pgError(err: PgError, timeoutMs?: number): HttpError {
  if (err.code === '25006') return httpError(DbBrowserErrors.READ_ONLY, `PostgreSQL refused the write: the connection is read-only (${err.message})`);
  if (err.code === '57014') return httpError(DbBrowserErrors.TIMEOUT, `the statement ran past its ${timeoutMs ?? ''} ms timeout and PostgreSQL cancelled it`.replace('  ', ' '));
  if (err.code && /^(08|28|3D)/.test(err.code)) return httpError(DbBrowserErrors.UNREACHABLE, `PostgreSQL: ${err.message}`);
  if (err.code) return httpError(DbBrowserErrors.QUERY_FAILED, `PostgreSQL ${err.code}: ${err.message}`);
  return httpError(DbBrowserErrors.UNREACHABLE, `PostgreSQL did not answer: ${err.message}`);
}

export class PgEngine implements DbEngine {
  private readonly pool: pg.Pool;
  /** Type names by oid, as the server's format_type gives them: a result's column types cost no round trip once seen. */
  private readonly typeNames = new Map<number, string>();
  private readonly columnCache = new Map<string, { at: number; columns: ColumnInfo[] }>();

  constructor(settings: ServerLogin, private readonly maxTimeoutMs: number) {
    this.pool = new pg.Pool({
      host: settings.host, port: settings.port, database: settings.database, user: settings.user, password: settings.password ?? undefined,
      ssl: settings.ssl ? { rejectUnauthorized: false } : undefined,
      max: 4, idleTimeoutMillis: 30_000, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, allowExitOnIdle: true,
      application_name: 'vigil dbbrowser', types: RAW_TEXT,
      // A backstop for a server that stops answering: statement_timeout is the real bound.
      query_timeout: maxTimeoutMs + CONNECT_TIMEOUT_MS,
    });
    // An idle client's error (the server restarted) must not reach the process's error handler.
    this.pool.on('error', () => {});
  }

  /**
   * Runs `work` in one transaction on one client: read-only unless `writable`, `timeoutMs` per statement. A client
   * whose transaction could not be ended is destroyed, never handed to the next caller.
   */
  private async inTransaction<T>(writable: boolean, timeoutMs: number, work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw pgError(err as PgError);
    }
    let broken: Error | undefined;
    try {
      // One round trip: our own text, over the simple protocol, which takes both statements.
      await client.query(`${writable ? 'BEGIN READ WRITE' : 'BEGIN READ ONLY'}; SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}`);
      const out = await work(client);
      await client.query(writable ? 'COMMIT' : 'ROLLBACK');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch((e: Error) => { broken = e; });
      throw err instanceof Error && 'status' in err ? err : pgError(err as PgError, timeoutMs);
    } finally {
      client.release(broken);
    }
  }

  async probe(): Promise<void> {
    await this.inTransaction(false, CONNECT_TIMEOUT_MS, (c) => c.query('SELECT 1'));
  }

  async tables(): Promise<TableList> {
    return this.inTransaction(false, CATALOG_TIMEOUT_MS, async (c) => {
      const schemas = await c.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace
        WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_toast%' AND nspname NOT LIKE 'pg\\_temp\\_%'
          AND has_schema_privilege(oid, 'USAGE') ORDER BY 1 LIMIT ${MAX_TABLES}`);
      const found = await c.query<{ schema: string; name: string; kind: string; estimate: string }>(`
        SELECT n.nspname AS schema, c.relname AS name, c.relkind AS kind, c.reltuples::bigint AS estimate
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp\\_%' AND has_schema_privilege(n.oid, 'USAGE')
        ORDER BY 1, 2 LIMIT ${MAX_TABLES + 1}`);
      const tables: TableInfo[] = found.rows.slice(0, MAX_TABLES).map((r) => {
        const estimate = Number(r.estimate);
        const view = r.kind === 'v' || r.kind === 'm' ? 'view' : 'table';
        return { schema: r.schema, name: r.name, kind: view, row_count: view === 'table' && estimate >= 0 ? estimate : null, row_count_exact: false };
      });
      // Small tables (and never analysed ones, reltuples -1) get count(*) within the budget, each in a savepoint so a
      // table we may not read, or a count cut by the budget, leaves the estimate and the transaction usable.
      const until = Date.now() + COUNT_BUDGET_MS;
      for (const t of tables) {
        const left = until - Date.now();
        if (left <= 0) break;
        if (t.kind !== 'table' || (t.row_count !== null && t.row_count > EXACT_COUNT_BELOW)) continue;
        await c.query('SAVEPOINT vigil_count');
        try {
          await c.query(`SET LOCAL statement_timeout = ${Math.max(1, left)}`);
          const n = await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${quote(t.schema)}.${quote(t.name)}`);
          t.row_count = Number(n.rows[0].n);
          t.row_count_exact = true;
          await c.query('RELEASE SAVEPOINT vigil_count');
        } catch {
          await c.query('ROLLBACK TO SAVEPOINT vigil_count');
        }
      }
      await c.query(`SET LOCAL statement_timeout = ${CATALOG_TIMEOUT_MS}`);
      return { schemas: schemas.rows.map((r) => r.name), tables, truncated: found.rows.length > MAX_TABLES };
    });
  }

  private async columnsOn(c: pg.PoolClient, schema: string, table: string): Promise<ColumnInfo[]> {
    const res = await c.query<{ name: string; type: string; nullable: boolean | string; default: string | null; primary_key: boolean | string }>(`
      SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
             pg_get_expr(d.adbin, d.adrelid) AS default, COALESCE(a.attnum = ANY (i.indkey), false) AS primary_key
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
      WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`, [schema, table]);
    if (!res.rows.length) throw httpError(DbBrowserErrors.TABLE_UNKNOWN, `PostgreSQL has no table or view "${table}" in schema "${schema}" that this login may read`);
    // Values arrive as text (RAW_TEXT): booleans are 't' and 'f'.
    const yes = (v: boolean | string) => v === true || v === 't';
    return res.rows.map((r) => ({ name: r.name, type: r.type, nullable: yes(r.nullable), primary_key: yes(r.primary_key), default: r.default }));
  }

  columns(schema: string, table: string): Promise<ColumnInfo[]> {
    return this.inTransaction(false, CATALOG_TIMEOUT_MS, (c) => this.columnsOn(c, schema, table));
  }

  /**
   * A table's columns for paging, remembered for COLUMNS_TTL_MS so the next page costs no catalog read; forgotten when
   * a page fails (a column dropped since, say).
   */
  private async pagingColumns(c: pg.PoolClient, schema: string, table: string): Promise<ColumnInfo[]> {
    const key = `${schema}\u0000${table}`;
    const held = this.columnCache.get(key);
    if (held && Date.now() - held.at < COLUMNS_TTL_MS) return held.columns;
    const columns = await this.columnsOn(c, schema, table);
    if (this.columnCache.size >= MAX_CACHED_TABLES) this.columnCache.delete(this.columnCache.keys().next().value!);
    this.columnCache.set(key, { at: Date.now(), columns });
    return columns;
  }

  /** Keyset pages on a one-column primary key; LIMIT/OFFSET for other tables and views. */
  rows(schema: string, table: string, limit: number, cursor: string | undefined, timeoutMs: number): Promise<RowsPage> {
    return this.inTransaction(false, timeoutMs, async (c) => {
      try {
        return await this.page(c, await this.pagingColumns(c, schema, table), schema, table, limit, cursor);
      } catch (err) {
        this.columnCache.delete(`${schema}\u0000${table}`);
        throw err;
      }
    });
  }

  private async page(c: pg.PoolClient, cols: ColumnInfo[], schema: string, table: string, limit: number, cursor: string | undefined): Promise<RowsPage> {
    const plan = planPage(cols, limit, cursor);
    const { key, n, position } = plan;
    const from = `${quote(schema)}.${quote(table)}`;
    const list = cols.map((k) => quote(k.name)).join(', ');
    const res = key
      ? await c.query({ text: `SELECT ${list} FROM ${from} ${position === null ? '' : `WHERE ${quote(key)} > $1`} ORDER BY ${quote(key)} LIMIT ${n + 1}`, values: position === null ? [] : [position], rowMode: 'array' })
      : await c.query({ text: `SELECT ${list} FROM ${from} LIMIT ${n + 1} OFFSET ${Number(position ?? 0)}`, rowMode: 'array' });
    return finishPage(cols, plan, res.rows as unknown[][]);
  }

  query(sql: string, o: QueryOptions): Promise<QueryResult> {
    const scanned = scanStatement(sql);
    const started = performance.now();
    return this.inTransaction(o.writable, o.timeoutMs, async (c) => {
      const extended = { queryMode: 'extended', rowMode: 'array' } as const;
      let columns: ResultColumn[] = [];
      const rows: Cell[][] = [];
      let cutBy: QueryResult['cut_by'] = null;
      let command: string | null = null;
      let affected: number | null = null;
      let weight = 0;
      const take = (batch: unknown[][]): void => {
        for (const r of batch) {
          if (rows.length >= o.cap) { cutBy = 'row_cap'; return; }
          const cells = r.map(cellOf);
          for (const cell of cells) weight += cellWeight(cell);
          rows.push(cells);
          if (weight > MAX_RESULT_CHARS) { cutBy = 'bytes'; return; }
        }
      };
      const typeNames = async (fields: pg.FieldDef[]): Promise<ResultColumn[]> => {
        const unknown = [...new Set(fields.map((f) => f.dataTypeID).filter((oid) => !this.typeNames.has(oid)))];
        if (unknown.length) {
          const types = await c.query<{ oid: string; name: string }>('SELECT oid::text AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid = ANY ($1::oid[])', [unknown]);
          for (const t of types.rows) if (this.typeNames.size < MAX_TYPE_NAMES) this.typeNames.set(Number(t.oid), t.name);
        }
        return fields.map((f) => ({ name: f.name, type: this.typeNames.get(f.dataTypeID) ?? null }));
      };
      if (QUERY_KEYWORDS.has(scanned.keyword)) {
        // A cursor: the server produces at most a batch beyond the cap.
        await c.query({ text: `DECLARE vigil_result NO SCROLL CURSOR FOR ${scanned.text}`, ...extended } as pg.QueryConfig);
        // Up to cap + 1 rows: the one past the cap tells a cut result from one that ends at the cap.
        for (;;) {
          const want = Math.min(FETCH_BATCH, o.cap + 1 - rows.length);
          const batch = await c.query({ text: `FETCH ${want} FROM vigil_result`, rowMode: 'array' });
          if (!columns.length) columns = await typeNames(batch.fields);
          take(batch.rows as unknown[][]);
          if (cutBy || batch.rows.length < want) break;
        }
        command = 'SELECT';
      } else {
        const res = await c.query({ text: scanned.text, ...extended } as pg.QueryConfig) as pg.QueryResult;
        columns = await typeNames(res.fields ?? []);
        take((res.rows ?? []) as unknown as unknown[][]);
        command = res.command ?? null;
        affected = res.command && /^(INSERT|UPDATE|DELETE|MERGE|COPY)$/.test(res.command) ? res.rowCount : null;
      }
      return {
        columns, rows, cut_at: cutBy ? rows.length : null, cut_by: cutBy, command, affected,
        duration_ms: Math.round(performance.now() - started),
      };
    });
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
