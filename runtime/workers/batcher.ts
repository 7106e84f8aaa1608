import type { Batcher, BatcherOptions, WorkerPool, CounterChild, Logger } from '@vigil/plugin-sdk';

/**
 * Collects items into batches for a worker pool. `push` never blocks: past `maxPending` (buffered + in flight) it
 * drops and counts, which is how the telemetry lane falls behind without slowing the traffic lane.
 */
export class PoolBatcher<I, O, T = I[]> implements Batcher<I> {
  private buffer: I[] = [];
  private inFlightItems = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly maxBatch: number;
  private readonly maxDelayMs: number;
  private readonly maxPending: number;

  constructor(
    private readonly pool: WorkerPool<T, O>,
    private readonly options: BatcherOptions<I, O, T>,
    private readonly counters: { dropped: CounterChild; failed: CounterChild; batches: CounterChild },
    private readonly log: Logger,
  ) {
    this.maxBatch = options.maxBatch ?? 256;
    this.maxDelayMs = options.maxDelayMs ?? 10;
    this.maxPending = options.maxPending ?? 10_000;
  }

  get pending(): number {
    return this.buffer.length + this.inFlightItems;
  }

  push(item: I): boolean {
    if (this.buffer.length + this.inFlightItems >= this.maxPending) {
      this.counters.dropped.inc();
      return false;
    }
    this.buffer.push(item);
    if (this.buffer.length >= this.maxBatch) this.send();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.send(), this.maxDelayMs);
      this.timer.unref();
    }
    return true;
  }

  private send(): void {
    if (this.timer) { clearTimeout(this.timer); this.timer = undefined; }
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    const items = batch.length;
    this.buffer = [];
    this.inFlightItems += items;
    this.counters.batches.inc();
    let task: T | undefined;
    const p: Promise<void> = this.run(batch, (t) => { task = t; })
      .then((out) => this.options.onResult(out, items))
      .catch((err) => {
        this.counters.failed.inc(items);
        this.log.error('worker batch failed', { items, error: err });
      })
      .finally(() => {
        this.inFlightItems -= items;
        this.inFlight.delete(p);
        if (task !== undefined && this.options.onSettled) {
          try {
            this.options.onSettled(task);
          } catch (err) {
            this.log.error('worker batch onSettled failed', { items, error: err });
          }
        }
      });
    this.inFlight.add(p);
  }

  /**
   * The batch's task, sent to the pool. A batch toTask cannot convert fails like a failed task: counted, not thrown
   * at push. A method of its own so that no closure of `send` holds the batch (V8 gives all closures of a scope one
   * context): once the task is made, nothing here keeps the items alive (see `onResult`).
   */
  private async run(batch: I[], made: (task: T) => void): Promise<O> {
    const task = this.options.toTask ? this.options.toTask(batch) : (batch as unknown as T);
    made(task);
    const transferList = this.options.transferList?.(task);
    return this.pool.run(task, transferList ? { transferList } : undefined);
  }

  async flush(): Promise<void> {
    this.send();
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }
}
