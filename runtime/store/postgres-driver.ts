import pg from 'pg';
import type { Logger, Row, SqlValue } from '@vigil/plugin-sdk';
import { StoreError, StoreErrors, queryError } from './errors.js';
import { numericTypes } from './postgres-types.js';
import type { Driver, TxConnection } from './types.js';

/** The URL as it may appear in logs and errors: without its password. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/**
 * PostgreSQL through a `pg` Pool. Statements outside transactions take any pooled connection; a transaction holds
 * one connection from BEGIN to COMMIT/ROLLBACK.
 */
export class PostgresDriver implements Driver {
  readonly dialect = 'postgres' as const;
  /** The wire protocol counts parameters in 16 bits. */
  readonly maxParams = 65_535;
  // statement_timestamp(): one value for the whole statement, fresh for each statement even inside a transaction.
  readonly nowSql = '(extract(epoch from statement_timestamp()) * 1000)::bigint';

  private constructor(private readonly pool: pg.Pool) {}

  static async open(url: string, log: Logger | undefined, connections = 10): Promise<PostgresDriver> {
    const pool = new pg.Pool({ connectionString: url, types: numericTypes, max: connections, idleTimeoutMillis: 30_000 });
    // An idle client losing its server emits here; unhandled it would end the process.
    pool.on('error', (err) => log?.warn('store: idle PostgreSQL connection failed', { err }));
    try {
      await pool.query('SELECT 1');
    } catch (err) {
      await pool.end().catch(() => {});
      throw new StoreError(StoreErrors.OPEN,
        `store: cannot reach PostgreSQL at ${redactUrl(url)}: ${(err as Error).message}; check storage.url and that the server accepts connections`,
        { cause: err });
    }
    return new PostgresDriver(pool);
  }

  async query(sql: string, params: readonly SqlValue[]): Promise<Row[]> {
    try {
      return (await this.pool.query(sql, params as SqlValue[])).rows;
    } catch (err) {
      throw queryError(err, sql);
    }
  }

  async run(sql: string, params: readonly SqlValue[]): Promise<{ changes: number }> {
    try {
      return { changes: (await this.pool.query(sql, params as SqlValue[])).rowCount ?? 0 };
    } catch (err) {
      throw queryError(err, sql);
    }
  }

  async transaction<T>(fn: (tx: TxConnection) => Promise<T>, options?: { lockKey?: string }): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw queryError(err, 'BEGIN');
    }
    let active = true;
    const tx = transactionConnection(client, () => active);
    try {
      await control(client, 'BEGIN');
      if (options?.lockKey !== undefined) {
        // Waits for the holder; released by COMMIT or ROLLBACK, also when the holder's connection dies.
        await control(client, 'SELECT pg_advisory_xact_lock(hashtext($1))', [options.lockKey]);
      }
      const result = await fn(tx);
      active = false;
      await control(client, 'COMMIT');
      client.release();
      return result;
    } catch (err) {
      active = false;
      try {
        await client.query('ROLLBACK');
        client.release();
      } catch (rollbackErr) {
        // A connection that cannot roll back is not given back to the pool.
        client.release(rollbackErr as Error);
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function control(client: pg.PoolClient, sql: string, params?: SqlValue[]): Promise<void> {
  try { await client.query(sql, params); } catch (err) { throw queryError(err, sql); }
}

function transactionConnection(client: pg.PoolClient, active: () => boolean): TxConnection {
  const check = () => {
    if (!active()) throw new StoreError(StoreErrors.CLOSED, 'store: a transaction handle was used after its transaction ended');
  };
  return {
    dialect: 'postgres',
    async query(sql, params) {
      check();
      try { return (await client.query(sql, params as SqlValue[])).rows; } catch (err) { throw queryError(err, sql); }
    },
    async run(sql, params) {
      check();
      try { return { changes: (await client.query(sql, params as SqlValue[])).rowCount ?? 0 }; } catch (err) { throw queryError(err, sql); }
    },
    async exec(sql) {
      check();
      try { await client.query(sql); } catch (err) { throw queryError(err, sql); }
    },
  };
}
