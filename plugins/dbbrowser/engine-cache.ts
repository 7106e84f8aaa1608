import type { WorkerPool } from '@vigil/plugin-sdk';
import type { ConnectionStore, SavedConnection } from './connection-store.js';
import { MysqlEngine } from './mysql-engine.js';
import { PgEngine } from './pg-engine.js';
import { SqliteEngine } from './sqlite-engine.js';
import type { SqliteTask } from './sqlite-task.js';
import type { DbEngine } from './types.js';

/** A server's port when the connection names none. */
export const DEFAULT_PORTS = { postgres: 5432, mysql: 3306 } as const;

/**
 * One engine per saved connection, made on first use and remade when the connection changes (a new password, writes
 * turned on or off): a PostgreSQL or MariaDB/MySQL pool is kept between requests, a SQLite file is opened per task.
 */
export class EngineCache {
  private readonly engines = new Map<string, { version: number; engine: DbEngine }>();

  constructor(private readonly connections: ConnectionStore, private readonly pool: WorkerPool<SqliteTask, unknown>, private readonly maxTimeoutMs: number) {}

  async engineOf(c: SavedConnection): Promise<DbEngine> {
    const held = this.engines.get(c.id);
    if (held && held.version === c.updatedAt) return held.engine;
    if (held) void held.engine.close().catch(() => {});
    const engine = await this.make(c);
    this.engines.set(c.id, { version: c.updatedAt, engine });
    return engine;
  }

  /** An engine for settings not saved yet (the add form's check); the caller closes it. */
  async make(c: SavedConnection, password?: string | null): Promise<SqliteEngine | PgEngine | MysqlEngine> {
    if (c.kind === 'sqlite') return new SqliteEngine(this.pool, c.path!);
    const login = {
      host: c.host!, port: c.port ?? DEFAULT_PORTS[c.kind], database: c.database!, user: c.user!, ssl: c.ssl,
      password: password !== undefined ? password : await this.connections.password(c),
    };
    return c.kind === 'mysql' ? new MysqlEngine(login) : new PgEngine(login, this.maxTimeoutMs);
  }

  forget(id: string): void {
    const held = this.engines.get(id);
    this.engines.delete(id);
    if (held) void held.engine.close().catch(() => {});
  }

  async closeAll(): Promise<void> {
    const all = [...this.engines.values()];
    this.engines.clear();
    await Promise.allSettled(all.map((h) => h.engine.close()));
  }
}
