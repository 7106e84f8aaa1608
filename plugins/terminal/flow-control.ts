/** Bytes of output the client has not acknowledged above which the pty is paused (VS Code's figure, in characters). */
export const HIGH_WATER_BYTES = 100_000;
/** Bytes unacknowledged below which a paused pty resumes. */
export const LOW_WATER_BYTES = 5_000;

/**
 * Flow control between a pty and a slow reader, as VS Code's terminal does it: every byte sent counts as unacknowledged
 * until the client says it has rendered it (`"a"+count`); above the high-water mark the pty is paused, so the program
 * writing blocks on the kernel's pty buffer instead of the server buffering its output; below the low-water mark it
 * resumes. A second hold covers a client that acknowledges without reading: the socket's own send buffer (`held`).
 * Memory per terminal: the high-water mark plus one pty read (about 64 KiB) in flight, whatever the client does.
 */
export class FlowControl {
  private unacknowledged = 0;
  private readonly holds = new Set<'acks' | 'socket'>();

  constructor(
    private readonly pty: { pause(): void; resume(): void },
    private readonly high = HIGH_WATER_BYTES,
    private readonly low = LOW_WATER_BYTES,
  ) {}

  /** Output of `bytes` was sent to the client. */
  sent(bytes: number): void {
    this.unacknowledged += bytes;
    if (this.unacknowledged > this.high) this.hold('acks');
  }

  /** The client acknowledged `bytes`; more than was sent is clamped (a client cannot buy credit in advance). */
  acknowledged(bytes: number): void {
    this.unacknowledged = Math.max(0, this.unacknowledged - bytes);
    if (this.unacknowledged < this.low) this.release('acks');
  }

  /** The socket's send buffer is over (`full`) or back under its bound. */
  socketFull(full: boolean): void {
    if (full) this.hold('socket');
    else this.release('socket');
  }

  get pending(): number { return this.unacknowledged; }
  get isPaused(): boolean { return this.holds.size > 0; }

  private hold(reason: 'acks' | 'socket'): void {
    if (this.holds.has(reason)) return;
    if (this.holds.size === 0) this.pty.pause();
    this.holds.add(reason);
  }

  private release(reason: 'acks' | 'socket'): void {
    if (!this.holds.delete(reason)) return;
    if (this.holds.size === 0) this.pty.resume();
  }
}
