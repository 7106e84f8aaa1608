// The lane's ExchangeProcessor: exchanges from the bus go into batches for the capture pool, each task carrying the
// policy in force when it is sent; what does not fit is dropped, counted, and its bytes given back.
import type { Batcher, Bus, ByteBudget, WorkerPool, WorkerPools } from '@vigil/plugin-sdk';
import type { RawExchange } from '../../gateway/exchange/raw-exchange.js';
import { packExchanges } from '../../gateway/exchange/exchange-batch.js';
import type { PolicyService } from '../../gateway/govern/policy-service.js';
import type { ExchangeProcessor, RecordExporter } from '../../gateway/lane-stages.js';
import type { StoredRows, StoreRowsTask } from '../../gateway/records/lane-tasks.js';
import type { LaneMetrics } from './lane-metrics.js';

export interface IntakeOptions {
  maxBatch: number;
  maxDelayMs: number;
  /** Exchanges buffered or in flight before new ones are dropped (`capture.queue`). */
  maxPending: number;
}

export class ExchangeIntake implements ExchangeProcessor {
  private readonly batcher: Batcher<RawExchange>;

  constructor(
    workers: WorkerPools, pool: WorkerPool<StoreRowsTask, StoredRows>, policy: PolicyService, bus: Bus,
    private readonly budget: ByteBudget, private readonly metrics: LaneMetrics, exporter: RecordExporter, options: IntakeOptions,
  ) {
    this.batcher = workers.batcher<RawExchange, StoredRows, StoreRowsTask>(pool, {
      // Each task carries the policy current when it is sent (its JSON, made once per version); its exchanges' buffers
      // move to the worker. The bytes the exchanges held move to the task: the packed copy holds as much until the
      // worker is done with it.
      toTask: (exchanges) => {
        let heldBytes = 0;
        for (const e of exchanges) { heldBytes += e.heldBytes ?? 0; e.heldBytes = 0; }
        try {
          return { policy: policy.current.workerJson, exchanges: packExchanges(exchanges), withRecords: bus.hasSubscribers('gateway.record'), heldBytes };
        } catch (err) {
          budget.give(heldBytes);
          throw err;
        }
      },
      onSettled: (task) => budget.give(task.heldBytes),
      transferList: (task) => [task.exchanges.numbers.buffer, task.exchanges.bodies.buffer],
      maxBatch: options.maxBatch,
      maxDelayMs: options.maxDelayMs,
      maxPending: options.maxPending,
      onResult: (result) => exporter.export(result),
    });
  }

  push(e: RawExchange): boolean {
    if (e.requestBodyDropped) this.metrics.droppedRequestBodies.inc();
    if (e.responseBodyDropped) this.metrics.droppedResponseBodies.inc();
    if (this.batcher.push(e)) return true;
    this.metrics.dropped.inc();
    this.letGo(e);
    return false;
  }

  flush(): Promise<void> {
    return this.batcher.flush();
  }

  /** Gives back what an exchange holds, once: the first to let go of it zeroes it. */
  letGo(e: RawExchange): void {
    if (e.heldBytes) this.budget.give(e.heldBytes);
    e.heldBytes = 0;
  }
}
