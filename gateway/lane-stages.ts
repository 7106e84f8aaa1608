// The telemetry lane's stages, each a named interface, as OpenTelemetry names its trace pipeline (Tracer →
// SpanProcessor → SpanExporter):
//
//   (source)            the traffic lane makes one RawExchange per request (exchange/raw-exchange.ts): the proxy
//                       publishes it on `gateway.exchange`, the Express and Koa middleware hand it on in-process
//   ExchangeProcessor   takes exchanges one by one, drops and counts what does not fit, and governs them in batches:
//                       capture's exchange intake (to worker threads), the middleware's InProcessGovernance
//   BatchGovernor       governs a batch into storable records (govern/govern-worker.ts)
//   RecordExporter      takes what a batch became (stored rows, counts, the records' JSON) and finishes it on the
//                       event loop: metrics, rows a thread could not write, `gateway.record` for the exporters
import type { RawExchange } from './exchange/raw-exchange.js';
import type { GovernResult, GovernTask } from './govern/govern-task.js';
import type { StoredRows } from './records/lane-tasks.js';

export interface ExchangeProcessor {
  /** Takes one exchange, never blocking; false when it was dropped (its bytes given back, and counted): the lane is full. */
  push(exchange: RawExchange): boolean;
  /** Governs what is buffered and waits for every batch in flight. */
  flush(): Promise<void>;
}

/** The worker module's default export: one storable record per exchange, in input order. */
export type BatchGovernor = (task: GovernTask) => Promise<GovernResult>;

export interface RecordExporter {
  /** Finishes one batch's outcome on the event loop. */
  export(batch: StoredRows): Promise<void>;
}
