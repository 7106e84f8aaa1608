/**
 * Ships the buffer to Vigil: a batch when `batchSize` items wait, everything after `flushIntervalMs`, and everything
 * on `flush()`. One batch is in flight at a time, in order; a batch is retried (same bytes, same item ids, so the
 * server stores it once) on network errors, 5xx and 429, after the server's Retry-After or an exponential backoff with
 * jitter, at most `maxRetries` times. A 413 splits the batch in halves; any other 4xx drops it. Nothing here throws:
 * every loss is counted in the stats and reported once through `report`.
 *
 * Timers: every timer of the sending loop is unref'd, so the client never keeps a process alive on its own. Only a
 * pending `flush()` holds a ref'd timer, its deadline: an application that awaits a flush stays up until it is done.
 */
import { ClientErrors, VigilClientError } from './errors.js';
import type { EncodedItem } from './encode-item.js';
import type { PostOutcome, Transport } from './post-batch.js';
import { backoffMs } from './retry-delay.js';
import type { TraceBuffer } from './trace-buffer.js';

export interface DeliveryOptions {
  batchSize: number;
  /** Bytes of item text per batch (before compression). */
  maxBatchBytes: number;
  flushIntervalMs: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

export interface DeliveryCounts {
  /** Items the server accepted. */
  sent: number;
  /** Items the client gave up on: buffer full, a refused batch, retries exhausted, not delivered at shutdown. */
  dropped: number;
  /** Items the server rejected one by one in a 202. */
  rejected: number;
  /** Attempts after the first, over all batches. */
  retries: number;
}

interface FlushWaiter { target: number; resolve(done: boolean): void; timer: NodeJS.Timeout }

export class Delivery {
  readonly counts: DeliveryCounts = { sent: 0, dropped: 0, rejected: 0, retries: 0 };
  private running = false;
  /** The sending loop's current run (settled when idle). */
  private loop: Promise<void> = Promise.resolve();
  /** Send what is pending even if less than a batch: set by the interval and by flush(), cleared once drained. */
  private drainWanted = false;
  private intervalTimer: NodeJS.Timeout | undefined;
  private sleeper: { timer: NodeJS.Timeout; wake(): void } | undefined;
  private readonly waiters = new Set<FlushWaiter>();
  /** Set by stop(): retries stop and what is left is dropped. */
  private stopped = false;
  /** Codes reported in the current run of drops: a full buffer reports once per episode, not once per trace. */
  private readonly quiet = new Set<string>();

  constructor(
    private readonly buffer: TraceBuffer,
    private readonly transport: Transport,
    private readonly options: DeliveryOptions,
    private readonly report: (err: VigilClientError) => void,
  ) {}

  /** Queues one encoded item, or drops and counts it when the buffer is at its bound. */
  enqueue(item: EncodedItem): void {
    if (this.stopped) {
      this.dropQuietly(ClientErrors.CLOSED, 'a trace was recorded after the client shut down; it and any later ones are dropped');
      return;
    }
    if (!this.buffer.add(item)) {
      this.dropQuietly(ClientErrors.BUFFER_FULL, `the buffer is full (${this.buffer.items} items, ${this.buffer.bytes} bytes held; ` +
        `bounds ${this.buffer.maxItems} items, ${this.buffer.maxBytes} bytes): Vigil is slow or unreachable; traces are dropped until it drains`);
      return;
    }
    this.quiet.delete(ClientErrors.BUFFER_FULL);
    if (this.buffer.pending >= this.options.batchSize) this.kick();
    else this.armInterval();
  }

  /**
   * Resolves true once every item recorded before the call has settled (sent, rejected or dropped), or false at the
   * deadline; never rejects. Its ref'd deadline timer keeps the process up meanwhile.
   */
  flush(timeoutMs: number): Promise<boolean> {
    const target = this.buffer.added;
    if (this.buffer.settled >= target) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: FlushWaiter = {
        target,
        resolve,
        timer: setTimeout(() => { this.waiters.delete(waiter); resolve(false); }, timeoutMs),
      };
      this.waiters.add(waiter);
      this.drainWanted = true;
      this.kick();
    });
  }

  /**
   * Stops retrying, drops what is pending and what is in flight (counted), and stops the timers. Resolves once the
   * sending loop has let go of its batch, which is at once: the request is destroyed and the backoff woken. Idempotent.
   */
  stop(): Promise<void> {
    if (this.stopped) return this.loop;
    this.stopped = true;
    clearTimeout(this.intervalTimer);
    this.intervalTimer = undefined;
    this.sleeper?.wake();
    this.transport.close();
    const dropped = this.buffer.dropPending();
    if (dropped) this.drop(dropped, ClientErrors.NOT_DELIVERED, `${dropped} trace item(s) were not sent before the client stopped`);
    this.settleWaiters();
    return this.loop;
  }

  private armInterval(): void {
    if (this.intervalTimer || this.stopped) return;
    this.intervalTimer = setTimeout(() => {
      this.intervalTimer = undefined;
      this.drainWanted = true;
      this.kick();
    }, this.options.flushIntervalMs);
    this.intervalTimer.unref();
  }

  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    let failed = false;
    this.loop = this.run()
      .catch((err: unknown) => {
        failed = true;
        this.report(new VigilClientError(ClientErrors.INTERNAL, `sending loop: ${(err as Error)?.message ?? err}`));
      })
      .finally(() => {
        this.running = false;
        // After a bug in the loop, wait for the interval rather than spin on it.
        if (failed) this.armInterval();
        else if (this.buffer.pending > 0) {
          if (this.waiters.size > 0 || this.buffer.pending >= this.options.batchSize) this.kick();
          else this.armInterval();
        }
      });
  }

  private async run(): Promise<void> {
    const { batchSize, maxBatchBytes } = this.options;
    while (!this.stopped && this.buffer.pending > 0 && (this.drainWanted || this.waiters.size > 0 || this.buffer.pending >= batchSize)) {
      const batch = this.buffer.take(batchSize, maxBatchBytes);
      try {
        await this.deliver(batch);
      } finally {
        this.buffer.release(batch);
        this.settleWaiters();
      }
    }
    if (this.buffer.pending === 0) this.drainWanted = false;
  }

  /** Sends one batch until it settles; every outcome is counted here. */
  private async deliver(batch: readonly EncodedItem[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (this.stopped) {
        this.drop(batch.length, ClientErrors.NOT_DELIVERED, `${batch.length} trace item(s) waiting for a retry were not delivered before the client stopped`);
        return;
      }
      let outcome: PostOutcome;
      try {
        outcome = await this.transport.post(batch);
      } catch (err) {
        outcome = { kind: 'retry', reason: (err as Error)?.message ?? String(err) };
      }
      switch (outcome.kind) {
        case 'accepted':
          this.counts.sent += outcome.accepted;
          if (outcome.rejected > 0) {
            this.counts.rejected += outcome.rejected;
            const detail = outcome.errors.slice(0, 5).map((e) => `#${e.index}${e.path ? ` ${e.path}` : ''}: ${e.code ?? ''} ${e.message ?? ''}`.trim());
            this.report(new VigilClientError(ClientErrors.ITEMS_REJECTED,
              `Vigil rejected ${outcome.rejected} of ${batch.length} item(s): ${detail.join('; ')}`, outcome.rejected));
          }
          return;
        case 'too-large':
          if (batch.length > 1) {
            // Halves are new requests, each with its own retries: the server's limit is below ours.
            const half = Math.ceil(batch.length / 2);
            await this.deliver(batch.slice(0, half));
            await this.deliver(batch.slice(half));
          } else {
            this.drop(1, ClientErrors.TOO_LARGE, `Vigil refused one trace item as too large (${batch[0].bytes} bytes): ${outcome.reason}`, 413);
          }
          return;
        case 'refused':
          this.drop(batch.length, outcome.status === 401 || outcome.status === 403 ? ClientErrors.AUTH : ClientErrors.BATCH_REFUSED,
            `Vigil refused a batch of ${batch.length} item(s): ${outcome.reason}`, outcome.status);
          return;
        case 'retry':
          if (this.stopped) {
            this.drop(batch.length, ClientErrors.NOT_DELIVERED, `${batch.length} trace item(s) in flight were not delivered before the client stopped (${outcome.reason})`);
            return;
          }
          if (attempt >= this.options.maxRetries) {
            this.drop(batch.length, ClientErrors.RETRIES_EXHAUSTED,
              `a batch of ${batch.length} item(s) failed ${attempt + 1} time(s), last: ${outcome.reason}`, outcome.status);
            return;
          }
          this.counts.retries++;
          await this.sleep(outcome.retryAfterMs ?? backoffMs(attempt, this.options.retryBaseMs, this.options.retryMaxMs));
          break;
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => { clearTimeout(timer); this.sleeper = undefined; resolve(); };
      const timer = setTimeout(wake, ms);
      timer.unref();
      this.sleeper = { timer, wake };
    });
  }

  private settleWaiters(): void {
    for (const w of this.waiters) {
      if (this.stopped || this.buffer.settled >= w.target) {
        clearTimeout(w.timer);
        this.waiters.delete(w);
        w.resolve(this.buffer.settled >= w.target);
      }
    }
  }

  /** Drops one item; reports only the first of a run of drops with the same code. */
  private dropQuietly(code: VigilClientError['code'], message: string): void {
    this.counts.dropped++;
    if (this.quiet.has(code)) return;
    this.quiet.add(code);
    this.report(new VigilClientError(code, message, 1));
  }

  private drop(items: number, code: VigilClientError['code'], message: string, status?: number): void {
    this.counts.dropped += items;
    this.report(new VigilClientError(code, message, items, status));
  }
}
