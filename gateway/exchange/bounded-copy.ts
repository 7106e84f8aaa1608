const EMPTY = new Uint8Array(0);
// A body of unknown length starts with this much room (or the first chunk's size) and doubles up to the limit, so
// a small chunked body never costs the whole limit.
const INITIAL_CAPACITY = 16 * 1024;

/**
 * Copies of a declared length up to SLAB_PIECE_MAX bytes are cut from a shared slab instead of each getting a buffer
 * of its own: a typed array with its own backing store costs an allocation outside the heap and a sweep after it on
 * every exchange, where a view of the slab is one small object. Pieces are never reused (a slab is let go whole, once
 * no view of it is left), so no copy ever sees another's bytes. The packed batch copies bodies out
 * (exchange-batch.ts), so a slab lives about as long as the batch its pieces are in. The budget counts a piece, not
 * its slab: a copy still filling (its response streaming, which holds an upstream connection) keeps at most one
 * slab alive, as much as a body of unknown length starts with (INITIAL_CAPACITY).
 */
const SLAB_BYTES = 16 * 1024;
export const SLAB_PIECE_MAX = 4 * 1024;
let slab = new ArrayBuffer(SLAB_BYTES);
let slabUsed = 0;

function slabPiece(bytes: number): Uint8Array {
  if (slabUsed + bytes > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const piece = new Uint8Array(slab, slabUsed, bytes);
  // Eight-byte aligned, as a buffer of its own would be.
  slabUsed += (bytes + 7) & ~7;
  return piece;
}

/** Where a copy's bytes are counted: the telemetry lane's budget (`capture.queue_bytes`). */
export interface CopyBudget {
  take(bytes: number): boolean;
  give(bytes: number): void;
}

const UNCOUNTED: CopyBudget = Object.freeze({ take: () => true, give: () => {} });

/**
 * A bounded copy of a body as it streams past: the first `limit` bytes, and whether more went by. It copies each
 * chunk synchronously and never holds on to the chunk itself, so the bytes forwarded are never delayed or shared.
 * Memory: one buffer of at most `limit` bytes, sized to the declared length when there is one, and taken from
 * `budget` before it is allocated. When the budget has no room, the copy is dropped whole (what it held is given
 * back at once) rather than kept in part: the body is then missing, never silently shorter.
 */
export class BoundedCopy {
  private buffer: Uint8Array | null = null;
  private length = 0;
  /** True once a byte beyond the limit went by. */
  truncated = false;
  /** True once the budget refused room: nothing is kept. */
  dropped = false;
  /** Bytes of the budget this copy holds. */
  held = 0;

  /** `expectedLength` is the declared Content-Length, or -1 when unknown. */
  constructor(private readonly limit: number, private readonly expectedLength: number, private readonly budget: CopyBudget = UNCOUNTED) {}

  push(chunk: Uint8Array): void {
    if (this.dropped) return;
    const room = this.limit - this.length;
    if (chunk.byteLength > room) this.truncated = true;
    const n = chunk.byteLength < room ? chunk.byteLength : room;
    if (n <= 0) return;
    const needed = this.length + n;
    if ((this.buffer === null || this.buffer.byteLength < needed) && !this.grow(needed)) {
      this.drop();
      return;
    }
    this.buffer!.set(n === chunk.byteLength ? chunk : chunk.subarray(0, n), this.length);
    this.length = needed;
  }

  /**
   * Takes a body that is already whole in memory (a buffered request), instead of `push`: a view of it when it fits
   * the limit (no second copy of bytes the gateway holds anyway), else a copy of its first `limit` bytes.
   */
  keep(body: Uint8Array): void {
    if (this.buffer === null && !this.dropped && body.byteLength <= this.limit) {
      if (!this.budget.take(body.byteLength)) {
        this.drop();
        return;
      }
      this.held = body.byteLength;
      this.buffer = body;
      this.length = body.byteLength;
      return;
    }
    this.push(body);
  }

  /**
   * The bytes kept, a view of exactly their size: a buffer of its own, or a piece of a slab when the declared length
   * was small (the batch packing copies them out; nothing clones them). The budget then holds exactly those bytes.
   * Empty when dropped.
   */
  bytes(): Uint8Array {
    if (this.buffer === null || this.length === 0) return EMPTY;
    if (this.buffer.byteLength !== this.length) {
      this.buffer = this.buffer.slice(0, this.length);
      this.budget.give(this.held - this.length);
      this.held = this.length;
    }
    return this.buffer;
  }

  /**
   * `bytes()`, handed over: the copy lets go of them (and of their count in the budget, which travels with them). A
   * copy can outlive its exchange (a keep-alive connection keeps its last request, and the request its listeners),
   * and must not keep the bytes alive after the telemetry lane is done with them.
   */
  handOver(): Uint8Array {
    const bytes = this.bytes();
    this.buffer = null;
    this.length = 0;
    this.held = 0;
    return bytes;
  }

  /** Gives the budget back (the copy will not be published). */
  release(): void {
    this.budget.give(this.held);
    this.held = 0;
    this.buffer = null;
    this.length = 0;
  }

  private drop(): void {
    this.release();
    this.dropped = true;
    this.truncated = false;
  }

  private grow(needed: number): boolean {
    let capacity: number;
    if (this.buffer === null && this.expectedLength >= needed) capacity = Math.min(this.expectedLength, this.limit);
    else capacity = Math.min(this.limit, Math.max(needed, INITIAL_CAPACITY, (this.buffer?.byteLength ?? 0) * 2));
    const more = capacity - (this.buffer?.byteLength ?? 0);
    if (!this.budget.take(more)) return false;
    this.held += more;
    const next = this.buffer === null && capacity <= SLAB_PIECE_MAX ? slabPiece(capacity) : new Uint8Array(capacity);
    if (this.buffer !== null) next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    return true;
  }
}
