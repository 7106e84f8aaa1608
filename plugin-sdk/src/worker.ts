/**
 * What a task module (the file a worker pool runs) may import. Main-thread plugin code uses the package root.
 */
import { workerData } from 'node:worker_threads';
import type { Store } from './store.js';

/** Where the runtime puts, in a `store: true` pool's `workerData`, how to open the plugin's store. */
export const WORKER_STORE_KEY = 'vigilStore';

/** How a worker thread reaches the runtime's store. */
export interface SharedStore {
  readonly url: string;
  /** SQLite write turns, shared with the process's other connections to the file. */
  readonly writeLock?: SharedArrayBuffer;
  /** The channel the thread's store operations are reported on, for the runtime's `vigil_store_*` metrics. */
  readonly metricsChannel?: string;
}

/** The store worker threads can open, or why they cannot (`sqlite::memory:`). */
export type ThreadStore = SharedStore | { readonly unavailable: string };

/** What the runtime puts under `WORKER_STORE_KEY`: the shared store, the module that opens it, and for which plugin. */
export type WorkerStoreInfo = (SharedStore & { readonly module: string; readonly plugin: string }) | { readonly unavailable: string };

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
