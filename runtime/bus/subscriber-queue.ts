import type { TopicHandler } from '@vigil/plugin-sdk';
import type { CounterChild } from '@vigil/plugin-sdk';

/**
 * One subscriber's bounded FIFO and its delivery loop. `offer` is the publisher's side: O(1), no await, and a full
 * queue drops the message (counted) instead of pushing back on the publisher.
 */
export class SubscriberQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  private running = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    readonly topic: string,
    readonly subscriber: string,
    private readonly handler: TopicHandler<T>,
    private readonly capacity: number,
    private readonly batchSize: number,
    private readonly dropped: CounterChild,
    private readonly delivered: CounterChild,
    private readonly onError: (err: unknown) => void,
    /** Told of each message dropped (the subscriber may own something in it). */
    private readonly onDrop?: (message: T) => void,
  ) {}

  get depth(): number {
    return this.items.length - this.head;
  }

  offer(message: T): boolean {
    if (this.closed || this.items.length - this.head >= this.capacity) {
      this.dropped.inc();
      this.onDrop?.(message);
      return false;
    }
    this.items.push(message);
    if (!this.running) {
      this.running = true;
      setImmediate(this.drainSoon);
    }
    return true;
  }

  /** Made once: a closure per scheduled drain was garbage on every publish. */
  private readonly drainSoon = (): void => this.drain();

  private take(): T[] {
    const end = Math.min(this.items.length, this.head + this.batchSize);
    const batch = this.items.slice(this.head, end) as T[];
    this.head = end;
    // Compact once the consumed prefix dominates, so memory tracks the live depth.
    if (this.head === this.items.length) { this.items = []; this.head = 0; }
    else if (this.head > 1024 && this.head * 2 > this.items.length) { this.items = this.items.slice(this.head); this.head = 0; }
    return batch;
  }

  /**
   * Delivers batch after batch until the queue is empty. Synchronous while the handler is (no promise per tick on
   * the publisher's thread); a handler's promise holds the next batch back until it settles.
   */
  private drain(): void {
    while (this.depth > 0) {
      const batch = this.take();
      let result: unknown;
      try {
        result = this.handler(batch);
      } catch (err) {
        this.onError(err);
        continue;
      }
      if (result && typeof (result as Promise<void>).then === 'function') {
        (result as Promise<void>)
          .then(() => this.delivered.inc(batch.length), (err: unknown) => this.onError(err))
          .then(this.drainSoon);
        return;
      }
      this.delivered.inc(batch.length);
    }
    this.running = false;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Resolves when the queue is empty and no handler runs. */
  idle(): Promise<void> {
    if (!this.running && this.depth === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
  }
}
