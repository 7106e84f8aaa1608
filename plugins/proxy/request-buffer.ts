import type { ByteBudget } from '@vigil/plugin-sdk';

/** What a chunk did to the buffer. */
export type BufferPush = 'kept' | 'full' | 'refused';

// A body of unknown length (or a known one arriving in pieces) starts with this much room and doubles: a small body
// never costs the whole bound, and a client that sends one byte holds little of the shared budget.
const INITIAL_CAPACITY = 4096;
const EMPTY = new Uint8Array(0);

/**
 * A request body read into memory before the upstream is asked for a connection, up to `limit` bytes. Its capacity
 * is taken from `budget` (shared by all clients) before it is allocated, and given back by `release`.
 * Memory: one buffer of at most `limit` bytes (at most the declared length), grown by doubling, so what a client
 * holds is at most twice what it sent, and never more than `limit`.
 */
export class RequestBuffer {
  private buffer: Uint8Array | null = null;
  private length = 0;
  private taken = 0;

  /** `expectedLength` is the declared Content-Length, or -1 when unknown (chunked). */
  constructor(private readonly limit: number, private readonly expectedLength: number, private readonly budget: ByteBudget) {}

  /** Bytes kept so far. */
  get received(): number {
    return this.length;
  }

  /**
   * Keeps `chunk` (copied: the chunk may be a view of the socket's read buffer) when it fits. `full`: it would pass
   * the limit, and nothing was kept of it. `refused`: the shared budget has no room for it.
   */
  push(chunk: Uint8Array): BufferPush {
    const needed = this.length + chunk.byteLength;
    if (needed > this.limit) return 'full';
    if (this.buffer === null || this.buffer.byteLength < needed) {
      if (!this.grow(needed)) return 'refused';
    }
    this.buffer!.set(chunk, this.length);
    this.length = needed;
    return 'kept';
  }

  /**
   * The bytes kept, in a buffer of exactly their size (so that the upstream gets a Content-Length, and a view kept for
   * capture carries no spare capacity). The budget stays taken until `release`.
   */
  bytes(): Uint8Array {
    if (this.buffer === null || this.length === 0) return EMPTY;
    if (this.buffer.byteLength !== this.length) this.buffer = this.buffer.slice(0, this.length);
    return this.buffer;
  }

  /** Gives the budget back; the bytes may still be referenced (by undici, by a capture view) but are no longer counted here. */
  release(): void {
    this.budget.give(this.taken);
    this.taken = 0;
    this.buffer = null;
  }

  private grow(needed: number): boolean {
    const bound = this.expectedLength >= 0 ? Math.min(this.expectedLength, this.limit) : this.limit;
    const capacity = Math.min(Math.max(bound, needed), Math.max(needed, INITIAL_CAPACITY, (this.buffer?.byteLength ?? 0) * 2));
    const more = capacity - (this.buffer?.byteLength ?? 0);
    if (!this.budget.take(more)) return false;
    this.taken += more;
    const next = new Uint8Array(capacity);
    if (this.buffer !== null) next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    return true;
  }
}
