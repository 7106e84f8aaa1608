import { VigilError } from '@vigil/plugin-sdk';

/** Stable codes of the store layer. */
export const StoreErrorCode = {
  /** The storage URL has an unknown scheme or cannot be parsed. */
  URL: 'VIGIL_ERR_STORE_URL',
  /** The database could not be opened or reached. */
  OPEN: 'VIGIL_ERR_STORE_OPEN',
  /** The store was used after `close()`. */
  CLOSED: 'VIGIL_ERR_STORE_CLOSED',
  /** The database rejected a statement. `driverCode` carries the driver's own code. */
  QUERY: 'VIGIL_ERR_STORE_QUERY',
  /** The number of `?` placeholders and of values differ, or a value has a type SQL cannot hold. */
  PARAMS: 'VIGIL_ERR_STORE_PARAMS',
  /** A table or column name given to insertMany/table is not a plain SQL identifier. */
  IDENTIFIER: 'VIGIL_ERR_STORE_IDENTIFIER',
  /** An insertMany row has a different length than the column list. */
  ROW_SHAPE: 'VIGIL_ERR_STORE_ROW_SHAPE',
  /** The store itself was called for a write from inside `transaction()` on SQLite (this would wait forever). */
  NESTED_TRANSACTION: 'VIGIL_ERR_STORE_NESTED_TRANSACTION',
  /** Migration versions are not 1, 2, 3, … for a plugin. */
  MIGRATION_ORDER: 'VIGIL_ERR_STORE_MIGRATION_ORDER',
  /** A migration's SQL failed; nothing of it was kept. */
  MIGRATION_FAILED: 'VIGIL_ERR_STORE_MIGRATION_FAILED',
} as const;

export class StoreError extends VigilError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, { status: 500, cause: options?.cause });
    this.name = 'StoreError';
  }
}

/** A statement the database rejected. */
export class StoreQueryError extends StoreError {
  /** The driver's code: a SQLSTATE such as `23505` on PostgreSQL, `SQLITE_CONSTRAINT` on SQLite. */
  readonly driverCode: string | undefined;
  /** True for a unique or primary key violation on either backend. */
  readonly uniqueViolation: boolean;
  constructor(message: string, options: { cause: unknown; driverCode?: string; uniqueViolation: boolean }) {
    super(StoreErrorCode.QUERY, message, { cause: options.cause });
    this.name = 'StoreQueryError';
    this.driverCode = options.driverCode;
    this.uniqueViolation = options.uniqueViolation;
  }
}

/** The first characters of a statement, for error messages: enough to recognise it, never a whole bulk insert. */
export function sqlExcerpt(sql: string, max = 160): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Wraps a driver error; keeps the driver's error as `cause`. */
export function queryError(err: unknown, sql: string): StoreError {
  if (err instanceof StoreError) return err;
  const e = err as { code?: unknown; message?: unknown; errno?: unknown };
  const driverCode = typeof e?.code === 'string' ? e.code : undefined;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  // SQLite reports SQLITE_CONSTRAINT for every constraint; the message says which (UNIQUE / PRIMARY KEY).
  const uniqueViolation = driverCode === '23505'
    || (driverCode === 'SQLITE_CONSTRAINT' && /UNIQUE|PRIMARY KEY/.test(message));
  return new StoreQueryError(`${message} (in: ${sqlExcerpt(sql)})`, { cause: err, driverCode, uniqueViolation });
}

export function closedError(): StoreError {
  return new StoreError(StoreErrorCode.CLOSED, 'store: used after close(); the runtime is shutting down or the store was closed by its owner');
}
