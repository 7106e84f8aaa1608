// A MariaDB or MySQL server, through mysql2 (pure JS). Each request takes one pooled connection and sets, before its
// work: `SET SESSION TRANSACTION READ ONLY` (unless the connection has writes on) and the server's statement timeout
// (MariaDB's max_statement_time, MySQL's max_execution_time) with sql_select_limit at the row cap + 1; a read-only
// request then runs in `START TRANSACTION READ ONLY` and is rolled back. The session setting matters: a DDL statement
// commits the open transaction implicitly and would run outside it, while a read-only session refuses it (1792).
// A client-side deadline backs the server's timeout: it sends `KILL QUERY` from a connection of its own, and the
// killed connection is destroyed, never reused (a late KILL must not reach the next statement).
import mysql from 'mysql2';
import { httpError, type HttpError } from '@vigil/plugin-sdk';
import { cellOf, cellWeight } from './cells.js';
import { DbBrowserErrors } from './errors.js';
import { mysqlTimeoutSetting, MYSQL_SYSTEM_SCHEMAS, typeNameOf } from './mysql-sql.js';
import { finishPage, planPage } from './page-plan.js';
import { QUERY_KEYWORDS, scanStatement } from './statement-scan.js';
import {
  MAX_RESULT_CHARS, MAX_TABLES, type Cell, type ColumnInfo, type DbEngine, type QueryOptions, type QueryResult, type ResultColumn,
  type RowsPage, type ServerLogin, type TableInfo, type TableList,
} from './types.js';


/** Above this estimate (information_schema.TABLES.TABLE_ROWS) a table's count is the estimate; at or below, count(*). */
const EXACT_COUNT_BELOW = 100_000;
const CONNECT_TIMEOUT_MS = 5000;
const COUNT_BUDGET_MS = 2000;
const CATALOG_TIMEOUT_MS = 10_000;
/** How long past its timeout the client waits for the server to cancel a statement before it kills it. */
const KILL_GRACE_MS = 250;

const quote = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

interface MysqlError extends Error { errno?: number; code?: string; sqlMessage?: string }
type Conn = mysql.PoolConnection;

/** The error the browser answers for a server's error; `timeoutMs` names the timeout that cancelled a statement. */
export function mysqlError(err: MysqlError, timeoutMs?: number): HttpError {
  const n = err.errno;
  const msg = err.sqlMessage ?? err.message;
  if (n === 1792 || n === 1290) return httpError(DbBrowserErrors.READ_ONLY, `the server refused the write (error ${n}): the connection is read-only (${msg})`);
  if (n === 1969 || n === 3024 || n === 1317) return httpError(DbBrowserErrors.TIMEOUT, `the statement ran past its ${timeoutMs ?? ''} ms timeout and the server cancelled it (error ${n})`.replace('  ', ' '));
  if (n === 1045 || n === 1044 || n === 1049 || (n !== undefined && n >= 2000 && n < 3000)) return httpError(DbBrowserErrors.UNREACHABLE, `MariaDB/MySQL ${n}: ${msg}`);
  if (n !== undefined && err.sqlMessage !== undefined) return httpError(DbBrowserErrors.QUERY_FAILED, `MariaDB/MySQL ${n}: ${msg}`);
  return httpError(DbBrowserErrors.UNREACHABLE, `MariaDB/MySQL did not answer: ${msg}`);
}

const run = <T = unknown>(c: Conn, sql: string, values: unknown[] = [], rowsAsArray = false): Promise<T> =>
  new Promise((resolve, reject) => c.query({ sql, values, rowsAsArray }, (err, rows) => (err ? reject(err) : resolve(rows as T))));

export class MysqlEngine implements DbEngine {
  private readonly pool: mysql.Pool;
  private mariadb: boolean | undefined;

  constructor(private readonly settings: ServerLogin) {
    this.pool = mysql.createPool({
      host: settings.host, port: settings.port, database: settings.database, user: settings.user, password: settings.password ?? undefined,
      ssl: settings.ssl ? { rejectUnauthorized: false } : undefined,
      connectionLimit: 4, maxIdle: 1, idleTimeout: 30_000, connectTimeout: CONNECT_TIMEOUT_MS,
      // One statement per request: the server refuses a second one in the same text.
      multipleStatements: false,
      // Values the browser shows as text, as the server prints them: dates, decimals and BIGINTs are not made numbers.
      dateStrings: true, supportBigNumbers: true, bigNumberStrings: true,
    });
  }

  /** A connection for `work`, set read-only (unless `writable`) with `timeoutMs` as the server's statement timeout. */
  private async withConnection<T>(writable: boolean, timeoutMs: number, selectLimit: number | null, work: (c: Conn, deadline: Deadline) => Promise<T>): Promise<T> {
    let c: Conn;
    try {
      c = await new Promise<Conn>((resolve, reject) => this.pool.getConnection((err, conn) => (err ? reject(err) : resolve(conn))));
    } catch (err) {
      throw mysqlError(err as MysqlError);
    }
    const deadline = new Deadline(this.settings, c, timeoutMs);
    let reusable = true;
    try {
      if (this.mariadb === undefined) {
        const [[version]] = await run<string[][]>(c, 'SELECT VERSION()', [], true);
        this.mariadb = /mariadb/i.test(version);
      }
      await run(c, `SET SESSION TRANSACTION ${writable ? 'READ WRITE' : 'READ ONLY'}`);
      await run(c, `SET SESSION ${mysqlTimeoutSetting(this.mariadb, timeoutMs)}, sql_select_limit = ${selectLimit ?? 'DEFAULT'}`);
      if (!writable) await run(c, 'START TRANSACTION READ ONLY');
      deadline.arm();
      const out = await deadline.bound(work(c, deadline));
      await deadline.settled();
      if (!writable && !deadline.killed) await run(c, 'ROLLBACK');
      return out;
    } catch (err) {
      reusable = false;
      await deadline.settled();
      if (err instanceof Error && 'status' in err) throw err;
      throw deadline.killed ? mysqlError({ name: 'timeout', message: 'killed', errno: 1317, sqlMessage: 'killed' }, timeoutMs) : mysqlError(err as MysqlError, timeoutMs);
    } finally {
      deadline.disarm();
      // A connection a KILL was sent to, or whose statement failed mid-way, is closed: the server rolls it back.
      if (reusable && !deadline.killed) c.release();
      else c.destroy();
    }
  }

  async probe(): Promise<void> {
    await this.withConnection(false, CONNECT_TIMEOUT_MS, null, (c) => run(c, 'SELECT 1'));
  }

  async tables(): Promise<TableList> {
    return this.withConnection(false, CATALOG_TIMEOUT_MS, null, async (c) => {
      const system = MYSQL_SYSTEM_SCHEMAS.map(() => '?').join(', ');
      const schemas = await run<{ name: string }[]>(c, `SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME NOT IN (${system}) ORDER BY 1 LIMIT ${MAX_TABLES}`, [...MYSQL_SYSTEM_SCHEMAS]);
      const found = await run<{ schema: string; name: string; kind: string; estimate: string | number | null }[]>(c, `
        SELECT TABLE_SCHEMA AS \`schema\`, TABLE_NAME AS name, TABLE_TYPE AS kind, TABLE_ROWS AS estimate FROM information_schema.TABLES
        WHERE TABLE_SCHEMA NOT IN (${system}) ORDER BY 1, 2 LIMIT ${MAX_TABLES + 1}`, [...MYSQL_SYSTEM_SCHEMAS]);
      const tables: TableInfo[] = found.slice(0, MAX_TABLES).map((r) => {
        const kind = r.kind === 'VIEW' ? 'view' : 'table';
        return { schema: r.schema, name: r.name, kind, row_count: kind === 'table' && r.estimate !== null ? Number(r.estimate) : null, row_count_exact: false };
      });
      // Small tables get count(*) within the budget, each under the budget's remainder as its statement timeout.
      const until = Date.now() + COUNT_BUDGET_MS;
      for (const t of tables) {
        const left = until - Date.now();
        if (left <= 0) break;
        if (t.kind !== 'table' || (t.row_count !== null && t.row_count > EXACT_COUNT_BELOW)) continue;
        try {
          await run(c, `SET SESSION ${mysqlTimeoutSetting(this.mariadb!, left)}`);
          const [n] = await run<{ n: string | number }[]>(c, `SELECT count(*) AS n FROM ${quote(t.schema)}.${quote(t.name)}`);
          t.row_count = Number(n.n);
          t.row_count_exact = true;
        } catch { /* a table this login may not read, or the budget ran out: the estimate stays */ }
      }
      return { schemas: schemas.map((r) => r.name), tables, truncated: found.length > MAX_TABLES };
    });
  }

  private async columnsOn(c: Conn, schema: string, table: string): Promise<ColumnInfo[]> {
    const rows = await run<{ name: string; type: string; nullable: string; def: string | null; pk: string }[]>(c, `
      SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, COLUMN_DEFAULT AS def, COLUMN_KEY AS pk
      FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`, [schema, table]);
    if (!rows.length) throw httpError(DbBrowserErrors.TABLE_UNKNOWN, `the server has no table or view "${table}" in database "${schema}" that this login may read`);
    return rows.map((r) => ({ name: r.name, type: r.type, nullable: r.nullable === 'YES', primary_key: r.pk === 'PRI', default: r.def }));
  }

  columns(schema: string, table: string): Promise<ColumnInfo[]> {
    return this.withConnection(false, CATALOG_TIMEOUT_MS, null, (c) => this.columnsOn(c, schema, table));
  }

  /** Keyset pages on a one-column primary key; LIMIT/OFFSET for other tables and views. */
  rows(schema: string, table: string, limit: number, cursor: string | undefined, timeoutMs: number): Promise<RowsPage> {
    return this.withConnection(false, timeoutMs, null, async (c) => {
      const cols = await this.columnsOn(c, schema, table);
      const plan = planPage(cols, limit, cursor);
      const { key, n, position } = plan;
      const from = `${quote(schema)}.${quote(table)}`;
      const list = cols.map((k) => quote(k.name)).join(', ');
      const got = key
        ? await run<unknown[][]>(c, `SELECT ${list} FROM ${from} ${position === null ? '' : `WHERE ${quote(key)} > ?`} ORDER BY ${quote(key)} LIMIT ${n + 1}`, position === null ? [] : [position], true)
        : await run<unknown[][]>(c, `SELECT ${list} FROM ${from} LIMIT ${n + 1} OFFSET ${Number(position ?? 0)}`, [], true);
      return finishPage(cols, plan, got);
    });
  }

  /**
   * One statement, its rows streamed: the server stops a plain SELECT at the cap + 1 (sql_select_limit); a statement
   * with a LIMIT of its own past the cap is killed once the cap or the byte budget is reached.
   */
  query(sql: string, o: QueryOptions): Promise<QueryResult> {
    const scanned = scanStatement(sql);
    const started = performance.now();
    return this.withConnection(o.writable, o.timeoutMs, o.cap + 1, (c, deadline) => new Promise<QueryResult>((resolve, reject) => {
      let columns: ResultColumn[] | null = null;
      const rows: Cell[][] = [];
      let cutBy: QueryResult['cut_by'] = null;
      let affected: number | null = null;
      let weight = 0;
      const q = c.query({ sql: scanned.text, rowsAsArray: true });
      // mysql2 tells 'fields' for a statement without rows too, with none.
      q.on('fields', (fields: { name: string; columnType?: number }[] | undefined) => {
        if (fields) columns ??= fields.map((f) => ({ name: f.name, type: typeNameOf(f.columnType) }));
      });
      q.on('result', (row: unknown) => {
        if (!Array.isArray(row)) {
          affected = (row as { affectedRows?: number }).affectedRows ?? null;
          return;
        }
        if (cutBy) return;
        if (rows.length >= o.cap) {
          cutBy = 'row_cap';
        } else {
          const cells = row.map(cellOf);
          for (const cell of cells) weight += cellWeight(cell);
          rows.push(cells);
          if (weight > MAX_RESULT_CHARS) cutBy = 'bytes';
        }
        // The rest is not read: a read is killed (the connection is then closed), anything else runs to its end.
        if (cutBy && QUERY_KEYWORDS.has(scanned.keyword)) deadline.kill();
      });
      q.on('error', (err: MysqlError) => {
        // The error of a read killed at the cap is the cut, not a failure.
        if (cutBy && err.errno === 1317) return;
        reject(err);
      });
      q.on('end', () => resolve({
        columns: columns ?? [], rows, cut_at: cutBy ? rows.length : null, cut_by: cutBy, command: scanned.keyword || null,
        affected: columns ? null : affected, duration_ms: Math.round(performance.now() - started),
      }));
    }));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.pool.end(() => resolve()));
  }
}

/**
 * The client's bound on one request's statements: at the timeout plus a grace, `KILL QUERY` from a connection of
 * its own (the server's own timeout should have fired first). `kill()` also ends a read cut at the row cap.
 */
class Deadline {
  killed = false;
  private timer: NodeJS.Timeout | undefined;
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly settings: ServerLogin, private readonly conn: Conn, private readonly timeoutMs: number) {}

  arm(): void {
    this.timer = setTimeout(() => this.kill(), this.timeoutMs + KILL_GRACE_MS);
    this.timer.unref();
  }

  disarm(): void {
    clearTimeout(this.timer);
  }

  kill(): void {
    if (this.killed) return;
    this.killed = true;
    this.disarm();
    const id = this.conn.threadId;
    this.pending = new Promise<void>((resolve) => {
      const s = this.settings;
      const killer = mysql.createConnection({
        host: s.host, port: s.port, user: s.user, password: s.password ?? undefined, connectTimeout: CONNECT_TIMEOUT_MS,
        ssl: s.ssl ? { rejectUnauthorized: false } : undefined,
      });
      killer.on('error', () => {});
      killer.query(`KILL QUERY ${Number(id)}`, () => killer.end(() => resolve()));
      // A server that stopped answering: the statement's own connection is destroyed by the caller anyway.
      setTimeout(() => { killer.destroy(); resolve(); }, CONNECT_TIMEOUT_MS).unref();
    });
  }

  /**
   * `work`, or a timeout error once the KILL has had CONNECT_TIMEOUT_MS to end it: a server that stops answering
   * does not hold the request (its connection is destroyed after).
   */
  bound<T>(work: Promise<T>): Promise<T> {
    let hard: NodeJS.Timeout | undefined;
    const giveUp = new Promise<never>((_, reject) => {
      hard = setTimeout(() => { this.killed = true; reject(new Error('no answer')); }, this.timeoutMs + KILL_GRACE_MS + CONNECT_TIMEOUT_MS);
      hard.unref();
    });
    return Promise.race([work, giveUp]).finally(() => clearTimeout(hard));
  }

  /** Waits for a KILL sent to end, so the connection is not released while one is in flight. */
  settled(): Promise<void> {
    return this.pending;
  }
}
