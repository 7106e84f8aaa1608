/**
 * One SQL store with two backends: SQLite (embedded default) and PostgreSQL (shared by several instances).
 *
 * Portable SQL: write `?` placeholders (translated to `$n` for PostgreSQL), `ON CONFLICT … DO NOTHING/UPDATE`,
 * `RETURNING`. Store times as integer milliseconds since the epoch (BIGINT) and JSON as TEXT; 64-bit integers come
 * back as JavaScript numbers on both backends. Where DDL differs, a migration gives one statement per dialect.
 */
export type Dialect = 'sqlite' | 'postgres';
export type SqlValue = string | number | bigint | boolean | null | Uint8Array;
export type Row = Record<string, unknown>;

export interface Migration {
  /** Strictly increasing per plugin, starting at 1. A recorded version never runs again. */
  version: number;
  name: string;
  /** SQL run in one transaction; several statements separated by `;` are allowed. */
  up: string | { sqlite: string; postgres: string };
}

export interface Queryable {
  readonly dialect: Dialect;
  query<R extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<R[]>;
  /** For statements without a result set; `changes` counts affected rows. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
}

/** Multi-row inserts: chunked under each backend's parameter limit. `onConflict` is appended verbatim, e.g. `ON CONFLICT (id) DO NOTHING`. */
export interface BulkInsert {
  insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], options?: { onConflict?: string }): Promise<number>;
}

/** The handle inside `transaction`: every statement on it commits or rolls back together. */
export interface Transaction extends Queryable, BulkInsert {}

export interface Store extends Queryable, BulkInsert {
  /** Runs `fn` in one transaction; commits when it resolves, rolls back when it throws. `insertMany` outside a transaction is one transaction of its own. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Applies this plugin's pending migrations in order, each recorded in `vigil_migrations`. Safe when several instances start at once. */
  migrate(migrations: readonly Migration[]): Promise<void>;
  /** The table name this plugin should use for `name`: `<plugin>_<name>` with dashes as underscores. */
  table(name: string): string;
}
