import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Row, SqlValue } from '@vigil/plugin-sdk';
import { StoreError, StoreErrors } from './errors.js';
import { SqliteConnection, sqliteMaxParams } from './sqlite-connection.js';
import type { ThreadWriteLock } from './thread-write-lock.js';
import type { Driver, TxConnection } from './types.js';
import { WriteQueue } from './write-queue.js';

/** Milliseconds a statement waits for another process's write lock before SQLITE_BUSY. */
const busyTimeoutMs = 5000;
/**
 * Bytes per page of a new database. SQLite writes each WAL frame (one page) with its own system call, so on an
 * insert-heavy store (capture's 1.5 KB records) 16 KiB pages cost about a quarter less CPU per row than the default
 * 4 KiB, nearly all of it system time; 32 and 64 KiB gain nothing more.
 */
const pageSize = 16_384;
/**
 * WAL bytes between automatic checkpoints: SQLite's default of 1,000 pages at 4 KiB. Counted in pages, the default
 * would make 16 KiB pages checkpoint 16 MiB at a time, each a four times longer burst of writes on SQLite's thread.
 */
const walCheckpointBytes = 4 * 1024 * 1024;
/**
 * Where the write connection keeps its temporary data (2: memory). A multi-row INSERT inside a transaction keeps a
 * statement journal (the pages it changed, to undo it alone); past 64 KiB, four of our pages, SQLite spills it to a
 * temporary file, which each capture batch then created, wrote page by page and deleted: system calls for pages
 * that are never read back (bench/govern-stages.ts, its insert stage). In memory it holds at most the pages one
 * statement changes. Read connections keep the default, so that a large sort behind an API query may still spill.
 */
const writerTempStore = 2;

interface ActiveTx {
  readonly driver: SqliteDriver;
  active: boolean;
}
/**
 * The transaction the running code is inside, which tells a store call made from inside a transaction callback
 * (it would wait forever behind that transaction) from a concurrent one (it waits its turn).
 *
 * Enabled only while a transaction is open on this thread. On Node 20, an enabled AsyncLocalStorage keeps
 * async_hooks on for the whole thread: every promise, socket and timer then runs an init hook, and each request
 * through the gateway's traffic lane paid for it (bench/gateway-throughput.ts, the event loop's CPU per request).
 */
const currentTx = new AsyncLocalStorage<ActiveTx>();
let openTransactions = 0;

/** Runs a transaction's callback inside `marker`'s context; the last transaction to end turns the context off. */
async function insideTransaction<T>(marker: ActiveTx, fn: () => Promise<T>): Promise<T> {
  openTransactions++;
  try {
    return await currentTx.run(marker, fn);
  } finally {
    // No context is left to exit: every transaction of this thread has ended.
    if (--openTransactions === 0) currentTx.disable();
  }
}

/** A statement that cannot write, so it may run on the read connection beside a transaction (WAL allows that). */
export function isReadOnlyStatement(sql: string): boolean {
  const head = sql.replace(/^(\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)+/, '');
  if (/^select\b/i.test(head)) return true;
  // A CTE may lead into INSERT/UPDATE/DELETE; when in doubt it is a write, which only costs concurrency.
  return /^with\b/i.test(head) && !/\b(insert|update|delete|replace)\b/i.test(head);
}

/**
 * SQLite in WAL mode. Writes, transactions and migrations go one at a time through `WriteQueue` on the write
 * connection, so a transaction never takes in another caller's statements. Reads outside transactions use a second,
 * read-only connection and see the last committed state. `:memory:` has a single connection for everything.
 */
export class SqliteDriver implements Driver {
  readonly dialect = 'sqlite' as const;
  readonly maxParams = sqliteMaxParams;
  // julianday() is fixed for the duration of one statement, so every use in a statement agrees.
  readonly nowSql = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";
  private readonly writes = new WriteQueue();

  private constructor(
    private readonly writer: SqliteConnection,
    private readonly reader: SqliteConnection | null,
    private readonly threadLock: ThreadWriteLock | undefined,
  ) {}

  /** `threadLock`: taken around every write, shared with the other threads' connections to the same file. */
  static async open(filename: string, threadLock?: ThreadWriteLock): Promise<SqliteDriver> {
    const memory = filename === ':memory:';
    if (!memory) {
      await mkdir(dirname(filename), { recursive: true }).catch((err: Error) => {
        throw new StoreError(StoreErrors.OPEN, `store: cannot create the directory of SQLite database ${filename}: ${err.message}`, { cause: err });
      });
    }
    const writer = await SqliteConnection.open(filename, false);
    let reader: SqliteConnection | null = null;
    try {
      // busy_timeout first: switching to WAL needs a lock another starting process may hold.
      await writer.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      // Before WAL, which creates the file: the page size is fixed then (an existing database keeps its own).
      await writer.exec(`PRAGMA page_size = ${pageSize}`);
      if (!memory) {
        const [mode] = await writer.query('PRAGMA journal_mode = WAL', []);
        if (String(mode?.journal_mode).toLowerCase() !== 'wal') {
          throw new StoreError(StoreErrors.OPEN, `store: ${filename} cannot use WAL (journal_mode is ${String(mode?.journal_mode)}); put the data directory on a local filesystem`);
        }
      }
      // secure_delete: freed content is overwritten with zeros. A durable queue holds items before they are redacted
      // (the LLM persist queue empties a payload once stored); without it, the bytes stay in free space for good.
      await writer.exec(`PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA temp_store = ${writerTempStore}; PRAGMA secure_delete = ON`);
      if (!memory) {
        const [page] = await writer.query('PRAGMA page_size', []);
        await writer.exec(`PRAGMA wal_autocheckpoint = ${Math.max(1, Math.round(walCheckpointBytes / Number(page?.page_size)))}`);
        reader = await SqliteConnection.open(filename, true);
        await reader.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      }
    } catch (err) {
      await writer.close().catch(() => {});
      await reader?.close().catch(() => {});
      throw err;
    }
    return new SqliteDriver(writer, reader, memory ? undefined : threadLock);
  }

  query(sql: string, params: readonly SqlValue[]): Promise<Row[]> {
    if (this.reader && isReadOnlyStatement(sql)) return this.reader.query(sql, params);
    return this.exclusive(() => this.writer.query(sql, params));
  }

  run(sql: string, params: readonly SqlValue[]): Promise<{ changes: number }> {
    return this.exclusive(() => this.writer.run(sql, params));
  }

  /** `lockKey` needs nothing more here: BEGIN IMMEDIATE holds the database's one write lock across processes. */
  transaction<T>(fn: (tx: TxConnection) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      await this.writer.run('BEGIN IMMEDIATE', []);
      const marker: ActiveTx = { driver: this, active: true };
      try {
        const result = await insideTransaction(marker, () => fn(this.txConnection(marker)));
        marker.active = false;
        await this.writer.run('COMMIT', []);
        return result;
      } catch (err) {
        marker.active = false;
        await this.writer.run('ROLLBACK', []).catch(() => {});
        throw err;
      }
    });
  }

  async close(): Promise<void> {
    await this.writes.drain();
    await this.reader?.close();
    await this.writer.close();
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const tx = currentTx.getStore();
    if (tx?.active && tx.driver === this) {
      // The caller runs inside a transaction callback and waits for this write, which waits for that transaction.
      return Promise.reject(new StoreError(StoreErrors.NESTED_TRANSACTION,
        'store: called the store from inside transaction(); use the tx argument of the callback for statements that belong to it (on SQLite this call would wait forever)'));
    }
    const lock = this.threadLock;
    return this.writes.run(lock ? () => lock.run(fn) : fn);
  }

  private txConnection(marker: ActiveTx): TxConnection {
    const writer = this.writer;
    const check = () => {
      if (!marker.active) throw new StoreError(StoreErrors.CLOSED, 'store: a transaction handle was used after its transaction ended');
    };
    return {
      dialect: 'sqlite',
      async query(sql, params) { check(); return writer.query(sql, params ?? []) as never; },
      async run(sql, params) { check(); return writer.run(sql, params ?? []); },
      async exec(sql) { check(); return writer.exec(sql); },
    };
  }
}
