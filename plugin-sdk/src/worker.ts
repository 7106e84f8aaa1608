/**
 * What a task module (the file a worker pool runs) may import. Main-thread plugin code uses the package root.
 */
import { workerData } from 'node:worker_threads';
import type { Store } from './store.js';

/** Where the runtime puts, in a `store: true` pool's `workerData`, how to open the plugin's store. */
export const WORKER_STORE_KEY = 'vigilStore';

/** What the runtime puts under `WORKER_STORE_KEY`. */
export type WorkerStoreInfo =
  | {
    readonly module: string; readonly url: string; readonly plugin: string;
    readonly writeLock?: SharedArrayBuffer; readonly metricsChannel?: string;
  }
  | { readonly unavailable: string };

let opened: Promise<Store> | undefined;

function info(): WorkerStoreInfo | undefined {
  return (workerData as Record<string, unknown> | null | undefined)?.[WORKER_STORE_KEY] as WorkerStoreInfo | undefined;
}

/** True when `workerStore()` can open a store in this thread (false: hand rows back to the main thread). */
export function workerStoreAvailable(): boolean {
  const i = info();
  return i !== undefined && !('unavailable' in i);
}

/**
 * The plugin's store, from a task of a pool created with `store: true`: this thread's own connection (opened on
 * first use, kept for the thread's life), with the same tables and the same API as `ctx.store`. Rejects when the
 * pool was not created with `store: true`, or when the store cannot be shared with threads (`sqlite::memory:`).
 */
export function workerStore(): Promise<Store> {
  // A failure is not kept: the next task tries again (a database that was briefly unreachable).
  opened ??= open().catch((err: unknown) => { opened = undefined; throw err; });
  return opened;
}

async function open(): Promise<Store> {
  const where = info();
  if (where === undefined) throw new Error('workerStore(): this worker pool was not created with { store: true }');
  if ('unavailable' in where) throw new Error(`workerStore(): ${where.unavailable}`);
  const { openWorkerStore } = (await import(where.module)) as { openWorkerStore(where: WorkerStoreInfo): Promise<Store> };
  return openWorkerStore(where);
}
