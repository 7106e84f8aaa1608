import { request } from 'undici';

/** Where and how governed records go to the agent. */
export interface ShipperOptions {
  /** The ingest route: `<agentUrl>/api/gateway/records`. */
  url: string;
  /** Bearer token of the ingest route (`capture.ingest_token` of the agent). */
  token: string;
  /** Records waiting to be sent; beyond, new records are dropped (and counted). */
  maxQueue: number;
  /** Most records per POST. */
  maxBatch: number;
  /** Most bytes of record JSON per POST (the agent refuses bodies over 16 MiB with 413). */
  maxBatchBytes: number;
  /** Longest a record waits for its batch to fill. */
  flushIntervalMs: number;
  /** Each POST is given up after this long (then retried). */
  timeoutMs: number;
  /** First retry delay; doubles per failed attempt, with jitter, up to `maxBackoffMs`. */
  minBackoffMs: number;
  maxBackoffMs: number;
  /** Failures of delivery, for the log: never thrown. */
  report(err: Error): void;
}

/** What became of records so far. */
export interface ShipperStats {
  queued: number;
  sent: number;
  /** Refused on arrival: the queue held `maxQueue` records. */
  dropped: number;
  /** Refused by the agent as malformed or unauthorised (4xx): retrying would not help, so they are let go. */
  rejected: number;
  /** POSTs that failed with a connection error, a timeout or a 5xx, and were retried. */
  retries: number;
}

/** A failure that retrying cannot cure (401, 400, 413). */
class Rejected extends Error {}

/**
 * Sends records to the agent in batches: a POST when `maxBatch` records wait or `flushIntervalMs` after the first,
 * one POST at a time. Connection errors, timeouts, 429 and 5xx keep the batch at the head of the queue and retry it
 * with exponential backoff; a 4xx drops it. The queue is bounded, and when full the newest records are the ones
 * dropped: what waits is older and already in order. Nothing here ever throws to the caller, and its timers never
 * keep the process alive.
 */
export class RecordShipper {
  private readonly queue: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private attempt = 0;
  private closed = false;
  private readonly counts = { sent: 0, dropped: 0, rejected: 0, retries: 0 };

  constructor(private readonly options: ShipperOptions) {}

  stats(): ShipperStats {
    return { queued: this.queue.length, ...this.counts };
  }

  push(records: readonly string[]): void {
    for (const r of records) {
      if (this.queue.length >= this.options.maxQueue) this.counts.dropped++;
      else this.queue.push(r);
    }
    if (this.queue.length >= this.options.maxBatch) this.sendSoon(0);
    else if (this.queue.length > 0) this.sendSoon(this.options.flushIntervalMs);
  }

  /** Sends what is queued now, retrying until it is delivered or `deadlineMs` has passed; never rejects. */
  async flush(deadlineMs = 10_000): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while (this.queue.length > 0 && Date.now() < deadline) {
      this.clearTimer();
      if (this.sending === null) this.sending = this.sendOne().finally(() => { this.sending = null; });
      await this.sending;
      if (this.queue.length > 0 && this.attempt > 0) await sleep(Math.min(this.backoff(), Math.max(0, deadline - Date.now())));
    }
    if (this.queue.length > 0 && !this.closed) this.sendSoon(this.options.flushIntervalMs);
  }

  /** Flushes (bounded by `deadlineMs`), then stops: later records are dropped. Safe to call twice. */
  async close(deadlineMs = 5_000): Promise<void> {
    if (this.closed) return;
    await this.flush(deadlineMs);
    this.closed = true;
    this.clearTimer();
  }

  private sendSoon(delayMs: number): void {
    if (this.closed || this.sending !== null) return;
    if (this.timer !== null) {
      if (delayMs > 0) return;
      this.clearTimer();
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sending = this.sendOne().finally(() => {
        this.sending = null;
        if (this.queue.length === 0 || this.closed) return;
        if (this.attempt > 0) this.sendSoon(this.backoff());
        else this.sendSoon(this.queue.length >= this.options.maxBatch ? 0 : this.options.flushIntervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One POST of the records at the head of the queue; they leave it when delivered or rejected. */
  private async sendOne(): Promise<void> {
    const count = this.batchSize();
    if (count === 0) return;
    const body = `{"records":[${this.queue.slice(0, count).join(',')}]}`;
    try {
      // undici's own request, not fetch: a fraction of fetch's CPU per POST (no WHATWG streams), on the app's thread.
      const res = await request(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.options.token}` },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const text = await res.body.text().catch(() => '');
      if (res.statusCode >= 200 && res.statusCode < 300) {
        this.queue.splice(0, count);
        this.counts.sent += count;
        this.attempt = 0;
        return;
      }
      const message = `the agent answered ${res.statusCode} to ${count} record(s): ${text.slice(0, 300)}`;
      if (res.statusCode === 429 || res.statusCode >= 500) throw new Error(message);
      throw new Rejected(message);
    } catch (err) {
      if (err instanceof Rejected) {
        this.queue.splice(0, count);
        this.counts.rejected += count;
        this.attempt = 0;
        this.options.report(err);
        return;
      }
      this.attempt++;
      this.counts.retries++;
      this.options.report(new Error(`sending ${count} record(s) to ${this.options.url} failed (attempt ${this.attempt}, retrying): ${describe(err)}`));
    }
  }

  /** Records at the head of the queue that fit one POST (at least one, however large). */
  private batchSize(): number {
    let bytes = 0;
    let n = 0;
    const max = Math.min(this.queue.length, this.options.maxBatch);
    while (n < max) {
      bytes += this.queue[n].length + 1;
      if (n > 0 && bytes > this.options.maxBatchBytes) break;
      n++;
    }
    return n;
  }

  private backoff(): number {
    const base = Math.min(this.options.maxBackoffMs, this.options.minBackoffMs * 2 ** Math.min(this.attempt - 1, 20));
    // Full jitter in the upper half: many app instances coming back at once do not retry in step.
    return Math.round(base / 2 + Math.random() * base / 2);
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  return code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
}

// Kept referenced: whoever awaits a flush keeps the process up until it settles (the background timers do not).
const sleep = (ms: number) => new Promise<void>((r) => { setTimeout(r, ms); });
