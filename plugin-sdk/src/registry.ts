/**
 * Payload types of bus topics. Plugins add theirs by declaration merging:
 *
 *     declare module '@vigil/plugin-sdk' { interface Topics { 'gateway.exchange': RawExchange } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Topics {
  [topic: `test.${string}`]: unknown;
}

/** Types of services plugins provide, extended by declaration merging like `Topics`. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Services {}
