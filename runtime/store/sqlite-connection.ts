import sqlite3 from 'sqlite3';
import type { Row, SqlValue } from '@vigil/plugin-sdk';
import { StoreError, StoreErrorCode, queryError } from './errors.js';

/** One node-sqlite3 connection behind promises. Callers serialise what must not interleave. */
export class SqliteConnection {
  private constructor(private readonly db: sqlite3.Database) {}

  static open(filename: string, readonly: boolean): Promise<SqliteConnection> {
    const mode = readonly ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(filename, mode, (err) => {
        if (err) reject(new StoreError(StoreErrorCode.OPEN, `store: cannot open SQLite database ${filename}: ${err.message}`, { cause: err }));
        else resolve(new SqliteConnection(db));
      });
    });
  }

  query(sql: string, params: readonly SqlValue[]): Promise<Row[]> {
    return new Promise((resolve, reject) => {
      this.db.all(sql, params as SqlValue[], (err: Error | null, rows: Row[]) => {
        if (err) reject(queryError(err, sql));
        else resolve(rows);
      });
    });
  }

  run(sql: string, params: readonly SqlValue[]): Promise<{ changes: number }> {
    return new Promise((resolve, reject) => {
      this.db.run(sql, params as SqlValue[], function onRun(this: sqlite3.RunResult, err: Error | null) {
        if (err) reject(queryError(err, sql));
        else resolve({ changes: this.changes });
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

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.db.close((err) => (err ? reject(queryError(err, 'close')) : resolve()));
    });
  }
}

/** SQLITE_MAX_VARIABLE_NUMBER is 32766 since SQLite 3.32 and 999 before; a build may lower it, never below 999. */
export const sqliteMaxParams = sqlite3.VERSION_NUMBER >= 3_032_000 ? 32_766 : 999;
