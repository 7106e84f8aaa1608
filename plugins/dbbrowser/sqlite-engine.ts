import { httpError, type HttpError, type WorkerPool } from '@vigil/plugin-sdk';
import { DbBrowserErrors } from './errors.js';
import type { SqliteFailure, SqliteTask } from './sqlite-task.js';
import type { ColumnInfo, DbEngine, QueryOptions, QueryResult, RowsPage, TableList } from './types.js';

/** The worker URL: the module is compiled beside this one. */
export const SQLITE_TASK_URL = new URL('./sqlite-task.js', import.meta.url);

/** How long counting rows for the table list may take, in ms; tables left uncounted show no count. */
const COUNT_BUDGET_MS = 2000;

const isFailure = (v: unknown): v is SqliteFailure => typeof v === 'object' && v !== null && (v as SqliteFailure).failed === true;

export function sqliteError(f: SqliteFailure, timeoutMs?: number): HttpError {
  switch (f.kind) {
    case 'read_only': return httpError(DbBrowserErrors.READ_ONLY, `SQLite refused the write: the file is opened read-only (${f.message})`);
    case 'timeout': return httpError(DbBrowserErrors.TIMEOUT, `the statement ran past its ${timeoutMs ?? ''} ms timeout and was interrupted`.replace('  ', ' '));
    case 'open': return httpError(DbBrowserErrors.UNREACHABLE, `cannot open the SQLite file: ${f.message}`);
    case 'table': return httpError(DbBrowserErrors.TABLE_UNKNOWN, f.message);
    case 'cursor': return httpError(DbBrowserErrors.CURSOR, f.message);
    case 'query': return httpError(DbBrowserErrors.QUERY_FAILED, `SQLite: ${f.message}`);
  }
}

/** A SQLite file has the one schema `main` (ATTACH is off). */
function mainOnly(schema: string): void {
  if (schema !== 'main') throw httpError(DbBrowserErrors.TABLE_UNKNOWN, `a SQLite file has the one schema "main", not "${schema}"`);
}

/** A SQLite file, each call a task of the worker pool (which opens and closes the file). */
export class SqliteEngine implements DbEngine {
  constructor(private readonly pool: WorkerPool<SqliteTask, unknown>, private readonly path: string) {}

  private async run<T>(task: SqliteTask, timeoutMs?: number): Promise<T> {
    const out = await this.pool.run(task);
    if (isFailure(out)) throw sqliteError(out, timeoutMs);
    return out as T;
  }

  /** Resolves when the file opens read-only as a SQLite database. */
  probe(): Promise<unknown> {
    return this.run({ op: 'probe', path: this.path });
  }

  tables(): Promise<TableList> {
    return this.run({ op: 'tables', path: this.path, budgetMs: COUNT_BUDGET_MS });
  }

  columns(schema: string, table: string): Promise<ColumnInfo[]> {
    mainOnly(schema);
    return this.run({ op: 'columns', path: this.path, table });
  }

  rows(schema: string, table: string, limit: number, cursor: string | undefined, timeoutMs: number): Promise<RowsPage> {
    mainOnly(schema);
    return this.run({ op: 'rows', path: this.path, table, limit, cursor, timeoutMs }, timeoutMs);
  }

  query(sql: string, o: QueryOptions): Promise<QueryResult> {
    return this.run({ op: 'query', path: this.path, sql, writable: o.writable, timeoutMs: o.timeoutMs, cap: o.cap }, o.timeoutMs);
  }

  async close(): Promise<void> {
    // Nothing is held open between calls.
  }
}
