/**
 * The encoded items waiting to be sent, plus those of the batch in flight, bounded in count and in bytes. Items leave
 * in the order they came, one batch at a time; a batch still counts against the bounds until it settles (sent,
 * rejected or dropped), so the bounds hold everything the client keeps.
 *
 * Memory: at most `maxItems` items and `maxBytes` bytes of their JSON text (UTF-8), plus the bookkeeping.
 */
import type { EncodedItem } from './encode-item.js';

export class TraceBuffer {
  private queue: EncodedItem[] = [];
  /** Index of the first item not yet taken: the queue is compacted lazily, not shifted per batch. */
  private head = 0;
  private heldItems = 0;
  private heldBytes = 0;
  /** Items ever added and ever settled (released or dropped): a flush waits for `settled` to reach `added`. */
  added = 0;
  settled = 0;

  constructor(readonly maxItems: number, readonly maxBytes: number) {}

  /** Items not yet taken into a batch. */
  get pending(): number { return this.queue.length - this.head; }
  /** Items held, in flight included. */
  get items(): number { return this.heldItems; }
  /** Bytes held, in flight included. */
  get bytes(): number { return this.heldBytes; }

  /** Adds the item, or returns false when it would pass either bound (the caller drops and counts it). */
  add(item: EncodedItem): boolean {
    if (this.heldItems + 1 > this.maxItems || this.heldBytes + item.bytes > this.maxBytes) return false;
    this.queue.push(item);
    this.heldItems++;
    this.heldBytes += item.bytes;
    this.added++;
    return true;
  }

  /** The next batch: up to `maxItems` items and `maxBytes` bytes of item text, but always one item when any is pending. */
  take(maxItems: number, maxBytes: number): EncodedItem[] {
    const batch: EncodedItem[] = [];
    let bytes = 0;
    while (this.head < this.queue.length && batch.length < maxItems) {
      const item = this.queue[this.head];
      if (batch.length > 0 && bytes + item.bytes > maxBytes) break;
      batch.push(item);
      bytes += item.bytes;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return batch;
  }

  /** The batch has settled: its items stop counting against the bounds. */
  release(batch: readonly EncodedItem[]): void {
    for (const item of batch) this.heldBytes -= item.bytes;
    this.heldItems -= batch.length;
    this.settled += batch.length;
  }

  /** Drops every item not yet taken and returns how many there were. */
  dropPending(): number {
    const dropped = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    this.release(dropped);
    return dropped.length;
  }
}
