import type { CaptureService, GovernedRecord, RawExchange } from './gateway.js';

/**
 * Payload types of bus topics. Plugins add theirs by declaration merging:
 *
 *     declare module '@vigil/plugin-sdk' { interface Topics { 'gateway.exchange': RawExchange } }
 */
export interface Topics {
  /** Raw exchanges: bounded copies of live traffic, published by the proxy. In-process only, never exported. */
  'gateway.exchange': RawExchange;
  /** Governed records, published by capture: what may be stored, shown and exported. */
  'gateway.record': GovernedRecord;
  /** Free for tests. */
  [topic: `test.${string}`]: unknown;
}

/** Types of services plugins provide, extended by declaration merging like `Topics`. */
export interface Services {
  capture: CaptureService;
}
