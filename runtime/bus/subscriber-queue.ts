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
  ) {}

  get depth(): number {
    return this.items.length - this.head;
  }

  offer(message: T): boolean {
    if (this.closed || this.items.length - this.head >= this.capacity) {
      this.dropped.inc();
      return false;
    }
    this.items.push(message);
    if (!this.running) {
      this.running = true;
      setImmediate(() => void this.drain());
    }
    return true;
  }

  private take(): T[] {
    const end = Math.min(this.items.length, this.head + this.batchSize);
    const batch = this.items.slice(this.head, end) as T[];
    this.head = end;
    // Compact once the consumed prefix dominates, so memory tracks the live depth.
    if (this.head === this.items.length) { this.items = []; this.head = 0; }
    else if (this.head > 1024 && this.head * 2 > this.items.length) { this.items = this.items.slice(this.head); this.head = 0; }
    return batch;
  }

  private async drain(): Promise<void> {
    while (this.depth > 0) {
      const batch = this.take();
      try {
        const r = this.handler(batch);
        if (r && typeof (r as Promise<void>).then === 'function') await r;
        this.delivered.inc(batch.length);
      } catch (err) {
        this.onError(err);
      }
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
