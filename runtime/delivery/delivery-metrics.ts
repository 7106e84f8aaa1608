import type { CounterChild, GaugeChild, Metrics } from '@vigil/plugin-sdk';

export interface DeliveryMetrics {
  /** Items delivered. */
  sent: CounterChild;
  /** Items discarded after a permanent error or after their last attempt. */
  failed: CounterChild;
  /** Items refused because the queue was full or shut down, or still held when shutdown's time ran out. */
  dropped: CounterChild;
  /** Items queued or in flight. */
  depth: GaugeChild;
}

/** Registers (or reuses: same name, type and labels) the queue metrics and binds them to this queue's name. */
export function deliveryMetrics(metrics: Metrics, prefix: string, labelName: string, queue: string): DeliveryMetrics {
  const labelNames = [labelName];
  return {
    sent: metrics.counter(`${prefix}_sent_total`, { help: 'Items delivered.', labelNames }).labels(queue),
    failed: metrics.counter(`${prefix}_failed_total`, {
      help: 'Items discarded after a permanent error or their last attempt.', labelNames,
    }).labels(queue),
    dropped: metrics.counter(`${prefix}_dropped_total`, {
      help: 'Items dropped: queue full, queue shut down, or undelivered when shutdown ran out of time.', labelNames,
    }).labels(queue),
    depth: metrics.gauge(`${prefix}_queue_depth`, { help: 'Items queued or in flight.', labelNames }).labels(queue),
  };
}
