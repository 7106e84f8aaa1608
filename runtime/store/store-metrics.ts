import { BroadcastChannel } from 'node:worker_threads';
import type { CounterChild, HistogramChild, Metrics } from '@vigil/plugin-sdk';

export type StoreOp = 'query' | 'run' | 'insert_many' | 'transaction' | 'migrate';
const ops: readonly StoreOp[] = ['query', 'run', 'insert_many', 'transaction', 'migrate'];

/** Times store operations: `Backend` runs every operation through one of these. */
export interface StoreTimer {
  measure<T>(op: StoreOp, work: () => Promise<T>): Promise<T>;
  /** Releases what the timer holds (a channel). */
  close(): void;
}

/** One operation a worker thread's connection finished, as it reports it: op, seconds, failed. */
type ThreadObservation = [op: StoreOp, seconds: number, failed: boolean];

/**
 * Store operations as metrics: `vigil_store_queries_total{op}`, `vigil_store_query_duration_seconds{op}`,
 * `vigil_store_errors_total{op}`. With `threadChannel`, the operations of worker threads' own connections to the
 * same store (pools with `store: true`, which do the telemetry lane's inserts) are counted too: they report on that
 * `BroadcastChannel` (`ReportingTimer`), since a worker thread cannot reach this thread's registry.
 */
export class StoreInstruments implements StoreTimer {
  private readonly children = new Map<StoreOp, { count: CounterChild; errors: CounterChild; seconds: HistogramChild }>();
  private readonly channel: BroadcastChannel | null = null;

  constructor(metrics: Metrics, threadChannel?: string) {
    const count = metrics.counter('vigil_store_queries_total', { help: 'Store operations, by kind (worker threads\' included).', labelNames: ['op'] });
    const errors = metrics.counter('vigil_store_errors_total', { help: 'Store operations that failed, by kind.', labelNames: ['op'] });
    const seconds = metrics.histogram('vigil_store_query_duration_seconds', {
      help: 'Time a store operation took, queueing for the SQLite writer included.',
      labelNames: ['op'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
    for (const op of ops) this.children.set(op, { count: count.labels(op), errors: errors.labels(op), seconds: seconds.labels(op) });
    if (threadChannel !== undefined) {
      this.channel = new BroadcastChannel(threadChannel);
      // Listening must not keep a stopping process alive.
      this.channel.unref();
      this.channel.onmessage = (event) => this.fromThread((event as MessageEvent).data);
    }
  }

  measure<T>(op: StoreOp, work: () => Promise<T>): Promise<T> {
    return timed(work, (seconds, failed) => this.record(op, seconds, failed));
  }

  close(): void {
    this.channel?.close();
  }

  private record(op: StoreOp, seconds: number, failed: boolean): void {
    const child = this.children.get(op)!;
    child.count.inc();
    if (failed) child.errors.inc();
    child.seconds.observe(seconds);
  }

  /** Anything else on the channel is ignored: only this process's threads can post there, but a metric must not throw. */
  private fromThread(data: unknown): void {
    if (!Array.isArray(data) || data.length !== 3) return;
    const [op, seconds, failed] = data as unknown[];
    if (!ops.includes(op as StoreOp) || typeof seconds !== 'number' || !(seconds >= 0) || typeof failed !== 'boolean') return;
    this.record(op as StoreOp, seconds, failed);
  }
}

/** A worker thread's timer: measures like `StoreInstruments` and reports each operation on `channel` to it. */
export class ReportingTimer implements StoreTimer {
  private readonly channel: BroadcastChannel;

  constructor(channel: string) {
    this.channel = new BroadcastChannel(channel);
    this.channel.unref();
  }

  measure<T>(op: StoreOp, work: () => Promise<T>): Promise<T> {
    return timed(work, (seconds, failed) => this.channel.postMessage([op, seconds, failed] satisfies ThreadObservation));
  }

  close(): void {
    this.channel.close();
  }
}

/** Runs `work` and tells `done` how long it took and whether it failed. */
async function timed<T>(work: () => Promise<T>, done: (seconds: number, failed: boolean) => void): Promise<T> {
  const start = process.hrtime.bigint();
  let failed = false;
  try {
    return await work();
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    done(Number(process.hrtime.bigint() - start) / 1e9, failed);
  }
}
