import type { Dialect, Migration, Queryable, Row, SqlValue, Store, Transaction } from '@vigil/plugin-sdk';

/** What a transaction callback gets from a driver: the connection holding the transaction, plus multi-statement exec. */
export interface TxConnection extends Queryable {
  /** Several `;`-separated statements without parameters (SQLite `exec`, PostgreSQL simple query). */
  exec(sql: string): Promise<void>;
}

/**
 * One backend's connection handling. Statements arrive ready for the database (placeholders already translated to
 * the dialect, values counted and normalised by the backend); the driver only runs them.
 */
export interface Driver {
  readonly dialect: Dialect;
  /** Bound parameters one statement may carry. */
  readonly maxParams: number;
  /** SQL expression for the database's current time in epoch milliseconds (BIGINT). */
  readonly nowSql: string;
  query(sql: string, params: readonly SqlValue[]): Promise<Row[]>;
  run(sql: string, params: readonly SqlValue[]): Promise<{ changes: number }>;
  /**
   * Runs `fn` in one transaction. With `lockKey`, the transaction also holds a lock of that name that excludes
   * every other process sharing the database until it ends.
   */
  transaction<T>(fn: (tx: TxConnection) => Promise<T>, options?: { lockKey?: string }): Promise<T>;
  close(): Promise<void>;
}

/**
 * The runtime's handle on the store: what plugins get (through `forPlugin`) plus what the core needs.
 *
 * Booleans: PostgreSQL returns `true`/`false` for BOOLEAN columns, SQLite returns 1/0. Code that must read the same
 * value on both stores booleans as INTEGER 0/1. 64-bit integers and numeric aggregates come back as numbers on both.
 */
export interface StoreBackend extends Queryable {
  /** The store a plugin gets: its migrations are recorded under `plugin`, its tables are `<plugin>_<name>`. */
  forPlugin(plugin: string): Store;
  insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], options?: { onConflict?: string }): Promise<number>;
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * The cross-process primitive for leases and one-at-a-time work: a transaction that also holds the lock `key`
   * against every process sharing the database (PostgreSQL `pg_advisory_xact_lock`; SQLite's write lock, which
   * `BEGIN IMMEDIATE` takes for the whole file).
   */
  lockedTransaction<T>(key: string, fn: (tx: TxConnection) => Promise<T>): Promise<T>;
  /**
   * SQL expression for the database clock in epoch ms. Leases compare against it, so instances on different
   * hosts sharing one PostgreSQL agree on time.
   */
  readonly nowSql: string;
  /** Applies `plugin`'s pending migrations in order; see `Store.migrate`. */
  migrate(plugin: string, migrations: readonly Migration[]): Promise<void>;
  /** Idempotent; waits for statements and transactions already started. */
  close(): Promise<void>;
}

export type { Row, SqlValue };
