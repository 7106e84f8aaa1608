import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseDuration, SecretBox, type PluginContext, type PluginInstance, type SecretBoxOwner } from '@vigil/plugin-sdk';
import type { DbBrowserConfig } from './config-schema.js';
import { ConnectionStore } from './connection-store.js';
import { EngineCache } from './engine-cache.js';
import { DbBrowserErrors } from './errors.js';
import { dbBrowserMigrations } from './migrations.js';
import { registerDbRoutes } from './routes.js';
import { SQLITE_TASK_URL } from './sqlite-engine.js';
import type { SqliteTask } from './sqlite-task.js';

const OWNER: SecretBoxOwner = { plugin: 'dbbrowser', code: DbBrowserErrors.SECRET_KEY, valueOf: 'the password of connection' };

/**
 * SQLite statements at once. Each holds one thread of libuv's pool (four by default, shared with file I/O and the
 * store) until it ends or is interrupted at its timeout: two leave the others free.
 */
const SQLITE_THREADS = 2;

export async function startDbBrowser(ctx: PluginContext, config: DbBrowserConfig): Promise<PluginInstance> {
  await ctx.store.migrate(dbBrowserMigrations);
  const roots = (config.roots ?? [homedir()]).map((r) => ctx.resolvePath(r));
  const keyFile = config.key_file ? ctx.resolvePath(config.key_file) : join(ctx.dataDir, 'secrets.key');
  const connections = new ConnectionStore(ctx.store, SecretBox.opener(keyFile, OWNER));
  const maxTimeoutMs = parseDuration(config.max_statement_timeout);
  const pool = ctx.workers.pool<SqliteTask, unknown>({
    filename: SQLITE_TASK_URL, name: 'dbbrowser-sqlite', minThreads: 0, maxThreads: SQLITE_THREADS, maxQueue: 32,
    // A result is bounded (row cap, byte budget); this bounds what a statement's own work may allocate in the thread.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  const engines = new EngineCache(connections, pool, maxTimeoutMs);
  registerDbRoutes(ctx.http, {
    connections, engines, roots,
    limits: {
      row_cap: Math.min(config.row_cap, config.max_row_cap), max_row_cap: config.max_row_cap,
      statement_timeout_ms: Math.min(parseDuration(config.statement_timeout), maxTimeoutMs), max_statement_timeout_ms: maxTimeoutMs,
    },
    audit: (entry) => ctx.http.audit(entry),
  });
  let stopped = false;
  return {
    start: () => undefined,
    async stop() {
      if (stopped) return;
      stopped = true;
      await engines.closeAll();
    },
  };
}
