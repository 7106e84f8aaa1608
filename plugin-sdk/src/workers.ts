/**
 * piscina worker pools for CPU-heavy work, and a batcher that feeds them with backpressure.
 */
export interface PoolOptions {
  /** A module whose default export is the task function `(input) => output`. */
  filename: string | URL;
  /** Names the pool in metrics. */
  name: string;
  minThreads?: number;
  maxThreads?: number;
  /** Tasks waiting for a thread before `run` rejects. Default: maxThreads × 4. */
  maxQueue?: number;
  /** Data each worker receives once, as `workerData`. Must be structured-cloneable (a plain object with `store`). */
  workerData?: unknown;
  /**
   * Gives each thread a connection of its own to the plugin's store, through `workerStore()` from
   * `@vigil/plugin-sdk/worker`, so a task can write what it produced instead of sending it back to the main thread
   * (whose time belongs to the traffic it serves). Needs `store` in the plugin's `needs`.
   * `sqlite::memory:` lives in the main thread only: there `workerStore()` rejects, and tasks hand rows back.
   */
  store?: boolean;
  /**
   * Background work (telemetry, say): the pool's threads run at the lowest CPU priority (nice 19), so on a busy
   * machine they get only the CPU the event loop leaves. Their tasks then wait longer, and a batcher's bound turns a
   * lasting shortfall into counted drops rather than slower traffic. Linux only, where a thread's priority is its
   * own; elsewhere the threads run at normal priority. Native work a task hands to libuv's thread pool (node-sqlite3
   * statements, say) runs there, at normal priority.
   */
  background?: boolean;
  /**
   * Memory each thread may use (worker_threads' `resourceLimits`): a thread that passes it ends with
   * ERR_WORKER_OUT_OF_MEMORY, its task rejects, and the pool starts another; the process lives on. For pools that
   * handle input a tenant decides the size of.
   */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
  /**
   * Tasks a thread runs at once (default 1). For tasks that wait on I/O (their own store connection): one task's CPU
   * work fills another's wait. Tasks still run one at a time between their awaits.
   */
  tasksPerThread?: number;
}

export interface WorkerPool<I, O> {
  run(input: I, options?: { transferList?: readonly unknown[] }): Promise<O>;
  readonly threads: number;
  /** Tasks waiting for a thread. */
  readonly queued: number;
  /**
   * Ends the pool's threads once the tasks given to it have settled (a thread ended in the middle of a native call, a
   * SQLite statement say, can abort the whole process). The runtime does this for every pool when it stops.
   */
  destroy(): Promise<void>;
}

export interface BatcherOptions<I, O, T = I[]> {
  /** Turns a batch into the pool's task, e.g. to send context along with the items. Default: the batch itself. */
  toTask?(batch: I[]): T;
  /** Buffers of a task to move to the worker instead of copying them (they are unusable here afterwards). */
  transferList?(task: T): readonly unknown[];
  /** Items per task. Default 256. */
  maxBatch?: number;
  /** Longest an item waits for its batch to fill. Default 10 ms. */
  maxDelayMs?: number;
  /** Items buffered or in flight before `push` refuses (drops and counts). Default 10,000. */
  maxPending?: number;
  /**
   * Called with each batch's output and how many items it held, in completion order. Errors are contained and
   * counted. The items themselves are let go as soon as the task is made: a task may wait long for a thread, and
   * with `maxPending` items in flight, keeping them too would double what a backlog holds on the event loop's heap
   * (and what its collections copy). Put what `onResult` needs in the output.
   */
  onResult(output: O, items: number): void | Promise<void>;
  /**
   * Called once per batch when it is over (after `onResult`, or after its task failed), with the task it was sent
   * as: to let go of what the task held (bytes of a budget, say). The task's transferred buffers are detached by then.
   */
  onSettled?(task: T): void;
}

export interface Batcher<I> {
  /** False when the item was dropped because `maxPending` is reached. Never blocks. */
  push(item: I): boolean;
  readonly pending: number;
  /** Sends what is buffered and waits for every batch in flight. */
  flush(): Promise<void>;
}

export interface WorkerPools {
  pool<I, O>(options: PoolOptions): WorkerPool<I, O>;
  /** A batcher over a pool whose task is a batch of `I` (or what `toTask` makes of one). */
  batcher<I, O, T = I[]>(pool: WorkerPool<T, O>, options: BatcherOptions<I, O, T>): Batcher<I>;
}
