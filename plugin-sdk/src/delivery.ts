/**
 * The queued-retry helper every exporter and channel sits behind: a bounded queue that drops and counts when full,
 * batching by count and by time, retries with exponential backoff, permanent errors never retried, and a timeout
 * on each attempt. Metrics: `<metricPrefix>_{sent,failed,dropped}_total{<labelName>}` (default
 * `vigil_export_*_total{exporter}`), and `<metricPrefix>_queue_depth`.
 */
export interface DeliveryQueueOptions<T> {
  /** Names the queue in metrics and logs. */
  name: string;
  /**
   * Delivers one batch. Throw `PermanentError` when retrying cannot help (the batch is then counted as failed and
   * discarded); any other throw is retried. `signal` aborts when the attempt times out or the queue shuts down.
   */
  send(batch: T[], signal: AbortSignal): Promise<void>;
  /** Items held (queued + in flight) before new ones are dropped. Default 10,000. */
  maxQueue?: number;
  /** Items per batch. Default 512. */
  maxBatch?: number;
  /** Longest an item waits for its batch to fill. Default 1,000 ms. */
  maxDelayMs?: number;
  /** Per-attempt timeout. Default 10,000 ms. */
  attemptTimeoutMs?: number;
  /** Attempts per batch before it is discarded as failed. Default: unlimited while the queue holds it. */
  maxAttempts?: number;
  /** Backoff base and cap. Defaults 500 ms and 30,000 ms; jittered. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Default `vigil_export`. */
  metricPrefix?: string;
  /** Default `exporter`. */
  labelName?: string;
}

export interface DeliveryQueue<T> {
  /** False when the item was dropped because the queue is full. Never blocks. */
  push(item: T): boolean;
  /** Returns how many were accepted. */
  pushMany(items: readonly T[]): number;
  /** Items queued or in flight. */
  readonly depth: number;
  /** Sends everything queued now, waiting at most `timeoutMs` (retries included). */
  flush(timeoutMs?: number): Promise<void>;
  /** Flushes within `timeoutMs`, then stops; idempotent. What could not be delivered is counted as dropped. */
  shutdown(timeoutMs?: number): Promise<void>;
}
