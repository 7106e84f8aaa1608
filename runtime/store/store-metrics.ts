import type { CounterChild, HistogramChild, Metrics } from '@vigil/plugin-sdk';

export type StoreOp = 'query' | 'run' | 'insert_many' | 'transaction' | 'migrate';
const ops: readonly StoreOp[] = ['query', 'run', 'insert_many', 'transaction', 'migrate'];

/** Store statements as metrics: `vigil_store_queries_total{op}`, `vigil_store_query_duration_seconds{op}`, `vigil_store_errors_total{op}`. */
export class StoreInstruments {
  private readonly children = new Map<StoreOp, { count: CounterChild; errors: CounterChild; seconds: HistogramChild }>();

  constructor(metrics: Metrics) {
    const count = metrics.counter('vigil_store_queries_total', { help: 'Store operations, by kind.', labelNames: ['op'] });
    const errors = metrics.counter('vigil_store_errors_total', { help: 'Store operations that failed, by kind.', labelNames: ['op'] });
    const seconds = metrics.histogram('vigil_store_query_duration_seconds', {
      help: 'Time a store operation took, queueing for the SQLite writer included.',
      labelNames: ['op'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
    for (const op of ops) this.children.set(op, { count: count.labels(op), errors: errors.labels(op), seconds: seconds.labels(op) });
  }

  /** Times `work` and records it under `op`. */
  async measure<T>(op: StoreOp, work: () => Promise<T>): Promise<T> {
    const child = this.children.get(op)!;
    const start = process.hrtime.bigint();
    try {
      return await work();
    } catch (err) {
      child.errors.inc();
      throw err;
    } finally {
      child.count.inc();
      child.seconds.observe(Number(process.hrtime.bigint() - start) / 1e9);
    }
  }
}
