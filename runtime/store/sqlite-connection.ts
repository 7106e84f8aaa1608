import sqlite3 from 'sqlite3';
import type { Row, SqlValue } from '@vigil/plugin-sdk';
import { StoreError, StoreErrors, queryError } from './errors.js';

/** Prepared statements kept per connection: enough for every write statement a batch-writing plugin repeats. */
const MAX_CACHED_STATEMENTS = 32;
/** Statements that may yield rows: `run` prepares them afresh each time. */
const RETURNS_ROWS = /\breturning\b|^\s*(?:select|with|pragma)\b/i;
/**
 * Writes that return rows (`INSERT … RETURNING`): `query` reuses their statements. `all` steps a statement to its end
 * and resets it, so none is left holding its transaction; reads stay unprepared (their texts vary more).
 */
const WRITE_RETURNING = /^\s*(?:insert|update|delete)\b[\s\S]*\breturning\b/i;

/** One node-sqlite3 connection behind promises. Callers serialise what must not interleave. */
export class SqliteConnection {
  // `Database.run` prepares its SQL on every call; a 100-row INSERT is long to parse, so writes reuse statements.
  private readonly statements = new Map<string, sqlite3.Statement>();

  private constructor(private readonly db: sqlite3.Database) {}

  static open(filename: string, readonly: boolean): Promise<SqliteConnection> {
    const mode = readonly ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(filename, mode, (err) => {
        if (err) reject(new StoreError(StoreErrors.OPEN, `store: cannot open SQLite database ${filename}: ${err.message}`, { cause: err }));
        else resolve(new SqliteConnection(db));
      });
    });
  }

  async query(sql: string, params: readonly SqlValue[]): Promise<Row[]> {
    const statement = this.statements.get(sql) ?? (WRITE_RETURNING.test(sql) ? await this.prepare(sql) : null);
    return new Promise((resolve, reject) => {
      const done = (err: Error | null, rows: Row[]) => {
        if (err) reject(queryError(err, sql));
        else resolve(rows);
      };
      if (statement) statement.all(params as SqlValue[], done);
      else this.db.all(sql, params as SqlValue[], done);
    });
  }

  async run(sql: string, params: readonly SqlValue[]): Promise<{ changes: number }> {
    // node-sqlite3 leaves a statement that stopped at a row active, holding its transaction: those are never kept,
    // so a cached statement needs no second look at its text.
    const statement = this.statements.get(sql) ?? (RETURNS_ROWS.test(sql) ? null : await this.prepare(sql));
    return new Promise((resolve, reject) => {
      function onRun(this: sqlite3.RunResult, err: Error | null) {
        if (err) reject(queryError(err, sql));
        else resolve({ changes: this.changes });
      }
      if (statement) statement.run(params as SqlValue[], onRun);
      else this.db.run(sql, params as SqlValue[], onRun);
    });
  }

  private prepare(sql: string): Promise<sqlite3.Statement> {
    return new Promise((resolve, reject) => {
      const statement = this.db.prepare(sql, (err: Error | null) => {
        if (err) { reject(queryError(err, sql)); return; }
        const raced = this.statements.get(sql);
        if (raced) { statement.finalize(); resolve(raced); return; }
        if (this.statements.size >= MAX_CACHED_STATEMENTS) {
          const [oldest, evicted] = this.statements.entries().next().value as [string, sqlite3.Statement];
          this.statements.delete(oldest);
          evicted.finalize();
        }
        this.statements.set(sql, statement);
        resolve(statement);
      });
    });
  }

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.db.exec(sql, (err: Error | null) => {
        if (err) reject(queryError(err, sql));
        else resolve();
      });
    });
  }

  async close(): Promise<void> {
    const statements = [...this.statements.values()];
    this.statements.clear();
    await Promise.all(statements.map((s) => new Promise<void>((resolve) => s.finalize(() => resolve()))));
    return new Promise((resolve, reject) => {
      this.db.close((err) => (err ? reject(queryError(err, 'close')) : resolve()));
    });
  }
}

/** SQLITE_MAX_VARIABLE_NUMBER is 32766 since SQLite 3.32 and 999 before; a build may lower it, never below 999. */
export const sqliteMaxParams = sqlite3.VERSION_NUMBER >= 3_032_000 ? 32_766 : 999;
