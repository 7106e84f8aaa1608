/** A request waiting for an upstream connection. */
export interface SlotWaiter {
  /** A connection is the waiter's now; it must `release()` it once its upstream request has settled. */
  granted(): void;
  /** No connection came free within the queue timeout; the waiter holds none. */
  timedOut(): void;
}

interface Entry { waiter: SlotWaiter; since: number; cancelled: boolean }

/** Handed to a waiter so that it can leave the queue (its client left, or it failed otherwise). */
export interface SlotTicket { cancel(): void }

const GRANTED: SlotTicket = Object.freeze({ cancel() {} });

/**
 * The upstream connections (`max_connections`) as slots, with a FIFO of the requests waiting for one. undici's pool
 * queues without bound and without a deadline, and a queued request cannot be taken back out; here the wait is
 * bounded (`queue_timeout`) and a request that gives up, or whose client leaves, never reaches the upstream.
 *
 * A slot is held from dispatch until the upstream request settles (complete or failed), which is as long as undici
 * holds a connection for it. Every waiter has the same timeout, so arrival order is deadline order: one timer, for
 * the oldest, serves the whole queue.
 */
export class UpstreamSlots {
  private active = 0;
  private queue: Entry[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  private live = 0;

  /** `queueTimeoutMs` 0: wait without bound. */
  constructor(readonly size: number, private readonly queueTimeoutMs: number) {}

  /** Requests holding a connection. */
  get inUse(): number {
    return this.active;
  }

  /** Requests waiting for one. */
  get waiting(): number {
    return this.live;
  }

  /** Grants a slot at once (synchronously) when one is free; otherwise queues the waiter. */
  acquire(waiter: SlotWaiter): SlotTicket {
    // A free slot means no live waiter: release hands each freed slot to the queue's oldest first.
    if (this.active < this.size) {
      this.active++;
      waiter.granted();
      return GRANTED;
    }
    const entry: Entry = { waiter, since: performance.now(), cancelled: false };
    this.queue.push(entry);
    this.live++;
    this.arm();
    return {
      cancel: () => {
        if (entry.cancelled) return;
        entry.cancelled = true;
        this.live--;
      },
    };
  }

  /** A granted request's upstream request settled: the slot goes to the next waiter. */
  release(): void {
    this.active--;
    while (this.active < this.size) {
      const entry = this.shift();
      if (entry === undefined) break;
      if (entry.cancelled) continue;
      entry.cancelled = true; // out of the queue: a cancel from now on is a no-op
      this.live--;
      this.active++;
      // Not from inside the caller's stack (an undici callback): the waiter dispatches, and may fail synchronously.
      queueMicrotask(() => entry.waiter.granted());
    }
  }

  private shift(): Entry | undefined {
    if (this.head === this.queue.length) return undefined;
    const entry = this.queue[this.head];
    this.queue[this.head++] = undefined as unknown as Entry;
    if (this.head === this.queue.length) { this.queue = []; this.head = 0; }
    else if (this.head > 1024 && this.head * 2 > this.queue.length) { this.queue = this.queue.slice(this.head); this.head = 0; }
    return entry;
  }

  private arm(): void {
    if (this.timer !== undefined || this.queueTimeoutMs === 0) return;
    const oldest = this.queue[this.head];
    if (oldest === undefined) return;
    const wait = Math.max(0, oldest.since + this.queueTimeoutMs - performance.now());
    this.timer = setTimeout(() => this.expire(), wait + 1);
    this.timer.unref();
  }

  private expire(): void {
    this.timer = undefined;
    const now = performance.now();
    const expired: SlotWaiter[] = [];
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head];
      if (!entry.cancelled && now - entry.since < this.queueTimeoutMs) break;
      this.shift();
      if (!entry.cancelled) {
        entry.cancelled = true;
        this.live--;
        expired.push(entry.waiter);
      }
    }
    this.arm();
    for (const waiter of expired) waiter.timedOut();
  }

  /** Ends the wait of every queued request (on stop): they time out now. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rest: SlotWaiter[] = [];
    for (let entry = this.shift(); entry !== undefined; entry = this.shift()) {
      if (entry.cancelled) continue;
      entry.cancelled = true;
      rest.push(entry.waiter);
    }
    this.live = 0;
    for (const waiter of rest) waiter.timedOut();
  }
}
