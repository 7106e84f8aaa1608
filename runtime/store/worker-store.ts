import type { Store } from '@vigil/plugin-sdk';
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
 * as the thread.
 */
export async function openWorkerStore(url: string, plugin: string, writeLock?: SharedArrayBuffer): Promise<Store> {
  const sqliteWriteLock = writeLock ? new ThreadWriteLock(writeLock) : undefined;
  return (await openStore(url, { postgresConnections: WORKER_POSTGRES_CONNECTIONS, sqliteWriteLock })).forPlugin(plugin);
}
