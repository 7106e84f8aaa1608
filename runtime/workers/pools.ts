import { Piscina } from 'piscina';
import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import { settledWithin, type Batcher, type BatcherOptions, type Logger, type Metrics, type PoolOptions, type WorkerPool, type WorkerPools } from '@vigil/plugin-sdk';
import { WORKER_STORE_KEY, type WorkerStoreInfo } from '@vigil/plugin-sdk/worker';
import type { ThreadStore } from '../store/open-store.js';
import { PoolBatcher } from './batcher.js';
import { BACKGROUND_TASK_KEY } from './thread-priority.js';

const WORKER_STORE_MODULE = new URL('../store/worker-store.js', import.meta.url).href;
const BACKGROUND_TASK_MODULE = new URL('./background-task.js', import.meta.url).href;

/** Owns every piscina pool of the runtime, so they are all destroyed on stop. */
export class WorkerPoolRegistry {
  private readonly pools = new Map<Piscina, TrackedPool>();
  private store: ThreadStore = { unavailable: 'the runtime has no store' };
  private readonly dropped;
  private readonly failed;
  private readonly batches;

  constructor(metrics: Metrics, private readonly log: Logger) {
    this.dropped = metrics.counter('vigil_workers_dropped_total', {
      help: 'Items refused by a batcher because its pool was saturated.', labelNames: ['pool'],
    });
    this.failed = metrics.counter('vigil_workers_failed_total', { help: 'Items whose worker task failed.', labelNames: ['pool'] });
    this.batches = metrics.counter('vigil_workers_batches_total', { help: 'Batches handed to a worker pool.', labelNames: ['pool'] });
    metrics.gauge('vigil_workers_queued', {
      help: 'Tasks waiting for a worker thread.', labelNames: ['pool'],
      collect: (g) => { for (const { piscina, name } of this.pools.values()) g.labels(name).set(piscina.queueSize); },
    });
  }

  /** The store `store: true` pools open in their threads: the runtime's, once it is open (`storeForThreads`). */
  useStore(store: ThreadStore): void {
    this.store = store;
  }

  forPlugin(plugin: string): WorkerPools {
    const log = this.log.child({ plugin });
    const { dropped, failed, batches } = this;
    return {
      pool: <I, O>(options: PoolOptions): WorkerPool<I, O> => this.create<I, O>(this.arranged(options, plugin)),
      batcher: <I, O, T = I[]>(pool: WorkerPool<T, O>, options: BatcherOptions<I, O, T>): Batcher<I> => {
        const name = (pool as { name?: string }).name ?? plugin;
        return new PoolBatcher(pool, options, {
          dropped: dropped.labels(name), failed: failed.labels(name), batches: batches.labels(name),
        }, log);
      },
    };
  }

  /**
   * The pool as piscina runs it: with `store`, the thread's store under WORKER_STORE_KEY; with `background`, the
   * background task module in front of the plugin's (whose URL goes under BACKGROUND_TASK_KEY).
   */
  private arranged(options: PoolOptions, plugin: string): PoolOptions {
    if (!options.store && !options.background) return options;
    const { workerData } = options;
    if (workerData !== undefined && (workerData === null || typeof workerData !== 'object' || Array.isArray(workerData))) {
      const why = options.store ? 'store: true' : 'background: true';
      throw new TypeError(`worker pool of plugin "${plugin}": with ${why}, workerData must be a plain object`);
    }
    const data: Record<string, unknown> = { ...(workerData as Record<string, unknown> | undefined) };
    if (options.store) {
      const store = this.store;
      const info: WorkerStoreInfo = 'unavailable' in store ? store : { module: WORKER_STORE_MODULE, plugin, ...store };
      data[WORKER_STORE_KEY] = info;
    }
    if (!options.background) return { ...options, workerData: data };
    data[BACKGROUND_TASK_KEY] = moduleUrl(options.filename);
    return { ...options, filename: BACKGROUND_TASK_MODULE, workerData: data };
  }

  private create<I, O>(options: PoolOptions): WorkerPool<I, O> {
    const maxThreads = options.maxThreads ?? Math.max(1, Math.min(4, cpus().length - 1));
    const piscina = new Piscina({
      filename: moduleUrl(options.filename),
      minThreads: Math.min(options.minThreads ?? 1, maxThreads),
      maxThreads,
      maxQueue: options.maxQueue ?? maxThreads * 4,
      workerData: options.workerData,
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
      ...(options.tasksPerThread ? { concurrentTasksPerWorker: options.tasksPerThread } : {}),
      // Workers must not keep a stopping process alive.
      idleTimeout: 30_000,
    });
    // A thread that dies outside a task (its module throws as it loads, say) is reported here; unheard, piscina's
    // 'error' event would end the process. The tasks it was given reject with the same error.
    piscina.on('error', (err: unknown) => this.log.error('worker pool thread failed', { pool: options.name, error: err }));
    const tracked: TrackedPool = { name: options.name, piscina, running: new Set() };
    this.pools.set(piscina, tracked);
    const pools = this.pools;
    return {
      name: options.name,
      run: (input: I, runOptions?: { transferList?: readonly unknown[] }) => {
        const task = piscina.run(input, runOptions?.transferList ? { transferList: runOptions.transferList as never } : undefined) as Promise<O>;
        const settled = task.then(() => {}, () => {});
        tracked.running.add(settled);
        void settled.then(() => tracked.running.delete(settled));
        return task;
      },
      get threads() { return piscina.threads.length; },
      get queued() { return piscina.queueSize; },
      async destroy() { pools.delete(piscina); await Promise.allSettled(tracked.running); await piscina.destroy(); },
    } as WorkerPool<I, O> & { name: string };
  }

  /**
   * Ends every pool's threads once its tasks have settled, waiting `timeoutMs` at most. A pool whose tasks are still
   * running then is left as it is, and its name is returned: ending a thread in the middle of a native call
   * (node-sqlite3's statements) aborts the whole process, so such a process must end by a signal instead.
   */
  async destroyAll(timeoutMs = 10_000): Promise<string[]> {
    const all = [...this.pools.values()];
    this.pools.clear();
    const busy: string[] = [];
    await Promise.all(all.map(async (pool) => {
      // Every pool waits from now, so the longest wait is `timeoutMs` for all of them together.
      await settledWithin(Promise.allSettled(pool.running), timeoutMs);
      if (pool.running.size) busy.push(pool.name);
      else await pool.piscina.destroy().catch(() => {});
    }));
    return busy;
  }
}

interface TrackedPool {
  name: string;
  piscina: Piscina;
  /** Tasks handed to the pool and not yet settled. */
  running: Set<Promise<void>>;
}

/** A task module as a file URL, whether the plugin named it by URL or by path. */
function moduleUrl(filename: string | URL): string {
  if (filename instanceof URL) return filename.href;
  return filename.startsWith('file:') ? filename : pathToFileURL(filename).href;
}
