import { defineErrorCodes, VigilError, type ErrorCodeOf } from '@vigil/plugin-sdk';

/** Codes of the store layer (`storage.url`: SQLite or PostgreSQL, shared by every plugin through `ctx.store`). */
export const StoreErrors = defineErrorCodes('STORE', {
  URL: {
    meaning: '`storage.url` is empty, has no file path, or has a scheme other than sqlite: and postgres://.',
    action: 'Write sqlite:/path/to/vigil.db, sqlite::memory: or postgres://user@host:5432/db (leave the key out for ' +
      'SQLite in data_dir).',
  },
  OPEN: {
    meaning: 'The database cannot be opened: the SQLite file or its directory cannot be created or used (WAL needs a local ' +
      'filesystem), or the PostgreSQL server cannot be reached.',
    action: 'Check the path and its permissions, or that PostgreSQL is up, accepts connections from this host and that ' +
      'the user, password and database in `storage.url` are right.',
  },
  CLOSED: {
    meaning: 'The store, or a transaction handle, was used after it was closed: during shutdown, or after the transaction ' +
      'callback returned.',
    action: 'During shutdown this is expected for work still running; otherwise, plugin authors: do not keep the tx handle ' +
      'beyond its callback, and stop work in `stop()` before the store closes.',
  },
  QUERY: {
    meaning: 'The database rejected a statement (constraint violation, syntax, missing table, lost connection); the message ' +
      'carries the driver\'s error and the start of the statement.',
    action: 'A lost connection or a full disk is the operator\'s to fix (see the driver\'s message); anything else is a bug ' +
      'in the plugin that sent the statement: report it with the message.',
  },
  PARAMS: {
    meaning: 'A statement got a different number of values than it has `?` placeholders, or a value SQL cannot hold ' +
      '(an object, a function, undefined).',
    action: 'Plugin authors: pass one value per `?`: a string, number, bigint, boolean, null or Uint8Array (JSON.stringify ' +
      'objects).',
  },
  IDENTIFIER: {
    meaning: 'A table or column name given to insertMany or table() is not a plain SQL identifier (optionally schema-qualified).',
    action: 'Plugin authors: use names of letters, digits and _ that do not start with a digit.',
  },
  ROW_SHAPE: {
    meaning: 'An insertMany row has a different number of values than the column list, or the column list is empty.',
    action: 'Plugin authors: give every row one value per column.',
  },
  NESTED_TRANSACTION: {
    meaning: 'The store itself was called from inside a transaction callback; on SQLite that call would wait forever for the ' +
      'transaction it is part of.',
    action: 'Plugin authors: run the statements that belong to the transaction on the callback\'s tx argument.',
  },
  MIGRATION_ORDER: {
    meaning: 'A plugin\'s migrations are not numbered 1, 2, 3, … in order, or migrate() got no plugin name.',
    action: 'Plugin authors: number migrations from 1 without gaps and never renumber a released one.',
  },
  MIGRATION_FAILED: {
    meaning: 'A migration\'s SQL failed on this database; none of it was kept and the plugin does not start.',
    action: 'Read the database\'s message (a permission, a disk, a table changed by hand) and fix that, or report it to the ' +
      'plugin\'s author naming the dialect (sqlite or postgres); start again once fixed.',
  },
});

export class StoreError extends VigilError {
  constructor(code: ErrorCodeOf<typeof StoreErrors>, message: string, options?: { cause?: unknown }) {
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
    super(StoreErrors.QUERY, message, { cause: options.cause });
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
  return new StoreError(StoreErrors.CLOSED, 'store: used after close(); the runtime is shutting down or the store was closed by its owner');
}
