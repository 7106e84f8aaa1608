/**
 * Bytes held against a fixed limit, shared by whoever allocates them: `take` refuses rather than exceed the limit,
 * and what was taken is given back exactly once, when the bytes are no longer referenced. A count, not an allocator:
 * it bounds memory only as well as its callers take before they allocate. One thread (an event loop) owns it.
 */
export class ByteBudget {
  private heldBytes = 0;

  /** `limit` in bytes; 0 refuses everything but an empty take. */
  constructor(readonly limit: number) {}

  /** Bytes taken and not yet given back. */
  get held(): number {
    return this.heldBytes;
  }

  /** Takes `bytes` when they fit under the limit; false (and nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (this.heldBytes + bytes > this.limit) return false;
    this.heldBytes += bytes;
    return true;
  }

  /** Gives back bytes taken earlier. */
  give(bytes: number): void {
    this.heldBytes -= bytes;
    // Giving back more than was taken is a caller's bug; the count must not go negative and admit more than the limit.
    if (this.heldBytes < 0) this.heldBytes = 0;
  }
}
