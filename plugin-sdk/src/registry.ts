import type { CaptureService, GovernedRecordJson, RawExchange } from './gateway.js';

/**
 * Payload types of bus topics. Plugins add theirs by declaration merging:
 *
 *     declare module '@vigil/plugin-sdk' { interface Topics { 'gateway.exchange': RawExchange } }
 */
export interface Topics {
  /** Raw exchanges: bounded copies of live traffic, published by the proxy. In-process only, never exported. */
  'gateway.exchange': RawExchange;
  /** Governed records, published by capture: each one's stored JSON text, to export as it is, and its key fields. */
  'gateway.record': GovernedRecordJson;
  /** Free for tests. */
  [topic: `test.${string}`]: unknown;
}

/** Types of services plugins provide, extended by declaration merging like `Topics`. */
export interface Services {
  capture: CaptureService;
}
