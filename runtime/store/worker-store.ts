import type { Store } from '@vigil/plugin-sdk';
import type { SharedStore } from '@vigil/plugin-sdk/worker';
import { openStore } from './open-store.js';
import { ThreadWriteLock } from './thread-write-lock.js';

/**
 * Connections a worker thread holds: its writes go one at a time (it runs one task at a time), and the database
 * counts every thread's pool against its connection limit.
 */
const WORKER_POSTGRES_CONNECTIONS = 2;

/**
 * Opens, in a worker thread, the store the runtime uses, as `plugin` sees it (`workerStore()` in the SDK loads this
 * module by URL). SQLite: a connection of the thread's own to the same file, taking turns with the process's other
 * writers through `writeLock` (thread-write-lock.ts). PostgreSQL: a small pool of the thread's own. It lives as long
 * as the thread. Its operations count in the main thread's `vigil_store_*` metrics, reported on `metricsChannel`.
 */
export async function openWorkerStore(where: SharedStore & { plugin: string }): Promise<Store> {
  const sqliteWriteLock = where.writeLock ? new ThreadWriteLock(where.writeLock) : undefined;
  const store = await openStore(where.url, { postgresConnections: WORKER_POSTGRES_CONNECTIONS, sqliteWriteLock, reportMetricsTo: where.metricsChannel });
  return store.forPlugin(where.plugin);
}
