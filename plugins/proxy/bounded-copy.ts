const EMPTY = new Uint8Array(0);
// A body of unknown length starts with this much room (or the first chunk's size) and doubles up to the limit, so
// a small chunked body never costs the whole limit.
const INITIAL_CAPACITY = 16 * 1024;

/**
 * A bounded copy of a body as it streams past: the first `limit` bytes, and whether more went by. It copies each
 * chunk synchronously and never holds on to the chunk itself, so the bytes forwarded are never delayed or shared.
 * Memory: one buffer of at most `limit` bytes, sized to the declared length when there is one.
 */
export class BoundedCopy {
  private buffer: Uint8Array | null = null;
  private length = 0;
  /** True once a byte beyond the limit went by. */
  truncated = false;

  /** `expectedLength` is the declared Content-Length, or -1 when unknown. */
  constructor(private readonly limit: number, private readonly expectedLength: number) {}

  push(chunk: Uint8Array): void {
    const room = this.limit - this.length;
    if (chunk.byteLength > room) this.truncated = true;
    const n = chunk.byteLength < room ? chunk.byteLength : room;
    if (n <= 0) return;
    const needed = this.length + n;
    if (this.buffer === null || this.buffer.byteLength < needed) this.grow(needed);
    this.buffer!.set(n === chunk.byteLength ? chunk : chunk.subarray(0, n), this.length);
    this.length = needed;
  }

  /**
   * Takes a body that is already whole in memory (a buffered request), instead of `push`: a view of it when it fits
   * the limit (no second copy of bytes the gateway holds anyway), else a copy of its first `limit` bytes.
   */
  keep(body: Uint8Array): void {
    if (this.buffer === null && body.byteLength <= this.limit) {
      this.buffer = body;
      this.length = body.byteLength;
      return;
    }
    this.push(body);
  }

  /** The bytes kept, in a buffer of exactly their size (so a structured clone never carries spare capacity). */
  bytes(): Uint8Array {
    if (this.buffer === null || this.length === 0) return EMPTY;
    return this.buffer.byteLength === this.length ? this.buffer : this.buffer.slice(0, this.length);
  }

  private grow(needed: number): void {
    let capacity: number;
    if (this.buffer === null && this.expectedLength >= needed) capacity = Math.min(this.expectedLength, this.limit);
    else capacity = Math.min(this.limit, Math.max(needed, INITIAL_CAPACITY, (this.buffer?.byteLength ?? 0) * 2));
    const next = new Uint8Array(capacity);
    if (this.buffer !== null) next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}
