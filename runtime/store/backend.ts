import type { Logger, Migration, Row, SqlValue, Store, Transaction } from '@vigil/plugin-sdk';
import { closedError } from './errors.js';
import { buildInsertChunks } from './insert-statements.js';
import { applyMigrations, type MigrationTarget } from './migrate.js';
import { PlaceholderCache } from './placeholders.js';
import { PluginStore } from './plugin-store.js';
import { bindParams } from './sql-values.js';
import type { StoreOp, StoreTimer } from './store-metrics.js';
import type { Driver, StoreBackend, TxConnection } from './types.js';

/**
 * What both backends share on top of their driver: placeholder checks and translation, value binding, bulk
 * inserts, migrations, metrics and an orderly close.
 */
export class Backend implements StoreBackend {
  readonly dialect;
  readonly nowSql;
  private readonly placeholders;
  private readonly timer: StoreTimer | null;
  private readonly log: Logger | undefined;
  private active = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  private closing: Promise<void> | null = null;
  /** Untracked, unmeasured access for work already admitted (a migration keeps going while close() waits for it). */
  private readonly inner: MigrationTarget;

  constructor(private readonly driver: Driver, options: { log?: Logger; timer?: StoreTimer } = {}) {
    this.dialect = driver.dialect;
    this.nowSql = driver.nowSql;
    this.placeholders = new PlaceholderCache(driver.dialect);
    this.timer = options.timer ?? null;
    this.log = options.log;
    this.inner = {
      dialect: this.dialect,
      nowSql: this.nowSql,
      query: <R extends Row = Row>(sql: string, params?: readonly SqlValue[]) => this.rawQuery<R>(sql, params),
      lockedTransaction: (key, fn) => this.driver.transaction((tx) => fn(this.wrapTx(tx)), { lockKey: key }),
    };
  }

  query<R extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<R[]> {
    return this.track('query', () => this.rawQuery<R>(sql, params));
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }> {
    return this.track('run', () => {
      const scanned = this.placeholders.get(sql);
      return this.driver.run(scanned.text, bindParams(sql, scanned.count, params));
    });
  }

  insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], options?: { onConflict?: string }): Promise<number> {
    return this.track('insert_many', async () => {
      if (rows.length === 0) return 0;
      return this.driver.transaction((tx) => this.insertChunks(tx, table, columns, rows, options));
    });
  }

  private async insertChunks(tx: TxConnection, table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], options?: { onConflict?: string }): Promise<number> {
    let written = 0;
    for (const chunk of buildInsertChunks(this.dialect, this.driver.maxParams, table, columns, rows, options?.onConflict)) {
      written += (await tx.run(chunk.sql, chunk.params)).changes;
    }
    return written;
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.track('transaction', () => this.driver.transaction((tx) => fn({
      ...this.wrapTx(tx),
      insertMany: (table, columns, rows, options) => this.insertChunks(tx, table, columns, rows, options),
    })));
  }

  lockedTransaction<T>(key: string, fn: (tx: TxConnection) => Promise<T>): Promise<T> {
    return this.track('transaction', () => this.inner.lockedTransaction(key, fn));
  }

  async migrate(plugin: string, migrations: readonly Migration[]): Promise<void> {
    await this.track('migrate', () => applyMigrations(this.inner, plugin, migrations, this.log));
  }

  forPlugin(plugin: string): Store {
    return new PluginStore(this, plugin);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      if (this.active > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      await this.driver.close();
      this.timer?.close();
    })();
    return this.closing;
  }

  private async rawQuery<R extends Row>(sql: string, params: readonly SqlValue[] | undefined): Promise<R[]> {
    const scanned = this.placeholders.get(sql);
    return await this.driver.query(scanned.text, bindParams(sql, scanned.count, params)) as R[];
  }

  /** The caller's `?` statements and values, checked and translated, on the driver's transaction connection. */
  private wrapTx(tx: TxConnection): TxConnection {
    const cache = this.placeholders;
    return {
      dialect: this.dialect,
      async query<R extends Row = Row>(sql: string, params?: readonly SqlValue[]) {
        const scanned = cache.get(sql);
        return await tx.query(scanned.text, bindParams(sql, scanned.count, params)) as R[];
      },
      async run(sql, params) {
        const scanned = cache.get(sql);
        return tx.run(scanned.text, bindParams(sql, scanned.count, params));
      },
      exec: (sql) => tx.exec(sql),
    };
  }

  private measure<T>(op: StoreOp, work: () => Promise<T>): Promise<T> {
    return this.timer ? this.timer.measure(op, work) : work();
  }

  /** Admits one operation unless closed, and lets close() wait for it. */
  private async track<T>(op: StoreOp, work: () => Promise<T>): Promise<T> {
    if (this.closed) throw closedError();
    this.active++;
    try {
      return await this.measure(op, work);
    } finally {
      if (--this.active === 0 && this.idleWaiters.length) {
        for (const resolve of this.idleWaiters.splice(0)) resolve();
      }
    }
  }
}
