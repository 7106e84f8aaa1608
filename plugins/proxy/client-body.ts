import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ByteBudget } from '@vigil/plugin-sdk';
import type { BodyPace, PacedBody, SlowBody } from './body-pace.js';
import { RequestBuffer } from './request-buffer.js';

/** What becomes of a client's request body; each is called at most once, and only one of whole / refused / tooSlow. */
export interface ClientBodyEvents {
  /** The whole body is in memory (it fitted the buffer): send it upstream in one piece. */
  whole(bytes: Uint8Array): void;
  /**
   * The body is larger than the buffer: `req` is paused, with what was read put back in front of it, so whoever
   * listens from now on sees the body from its first byte. Send `req` upstream.
   */
  streaming(): void;
  /** The shared budget of the request buffers had no room for this body. */
  refused(): void;
  /** The client sent too slowly (`why`), while buffered or streamed. */
  tooSlow(why: SlowBody): void;
}

export interface ClientBodyLimits {
  /** Bytes read before the upstream is asked for a connection; 0 streams at once. */
  bufferBytes: number;
  /** The budget all request buffers share. */
  budget: ByteBudget;
  /** Longest the buffered phase may take (ms); 0: no bound. */
  bufferTimeoutMs: number;
  pace: BodyPace;
}

/**
 * A client's request body on its way in. First it is read into a bounded buffer, so that a small body is whole
 * before an upstream connection is taken (nginx's `proxy_request_buffering`) and a slow client never holds one
 * while it dribbles. A body that outgrows the buffer is streamed from then on. In both phases the body is paced:
 * a client that goes silent or too slow is cut (`tooSlow`), and the buffered phase has a deadline of its own.
 */
export class ClientBody implements PacedBody {
  /** The body's last byte went by (whole in the buffer, or read to its end by the upstream client). */
  ended = false;
  deadline = Infinity;
  private mode: 'buffer' | 'stream' | 'over' = 'over';
  private buffer: RequestBuffer | null = null;
  private streamed = 0;

  constructor(
    private readonly req: IncomingMessage,
    private readonly expectedLength: number,
    private readonly limits: ClientBodyLimits,
    private readonly events: ClientBodyEvents,
  ) {}

  get received(): number {
    return this.mode === 'buffer' ? this.buffer!.received : this.streamed;
  }

  start(): void {
    const { limits, req } = this;
    if (limits.bufferBytes === 0) {
      this.stream();
      return;
    }
    this.mode = 'buffer';
    this.buffer = new RequestBuffer(limits.bufferBytes, this.expectedLength, limits.budget);
    const now = performance.now();
    if (limits.bufferTimeoutMs > 0) this.deadline = now + limits.bufferTimeoutMs;
    limits.pace.watch(this, now);
    req.on('data', this.onBufferData);
    req.on('end', this.onBufferEnd);
  }

  waitingOnClient(): boolean {
    if (this.mode === 'buffer') return true;
    // Streamed: only while the upstream client reads (flowing) and nothing it has not taken yet is waiting. Paused
    // (no connection yet, or the upstream reads slowly), the wait is the gateway's.
    return this.mode === 'stream' && this.req.readableFlowing === true && this.req.readableLength === 0;
  }

  tooSlow(why: SlowBody): void {
    // Told first, while what was buffered is still there to be captured; then stopped (a no-op when told stopped it).
    this.events.tooSlow(why);
    this.stop();
  }

  /** Stops reading and watching, and gives the buffer's budget back (the bytes may still be on their way upstream). */
  stop(): void {
    if (this.mode === 'buffer') this.detachBuffer();
    this.mode = 'over';
    this.limits.pace.unwatch(this);
    this.buffer?.release();
    this.buffer = null;
  }

  /** The bytes read so far while the body is still being buffered (for capture, when it never got whole). */
  bufferedPrefix(): Uint8Array | null {
    return this.mode === 'buffer' ? this.buffer!.bytes() : null;
  }

  private readonly onBufferData = (chunk: Buffer): void => {
    const kept = this.buffer!.push(chunk);
    if (kept === 'kept') {
      // A declared length past the buffer: streaming starts as soon as the buffer is full, not a chunk later.
      if (this.expectedLength > this.limits.bufferBytes && this.buffer!.received === this.limits.bufferBytes) this.overflow(null);
      return;
    }
    if (kept === 'refused') {
      this.events.refused();
      this.stop();
      return;
    }
    this.overflow(chunk);
  };

  /**
   * Larger than the buffer: what was read goes back in front of the stream, in order, and the body is streamed from
   * its first byte. The buffer's budget stays taken until stop: those bytes now wait in the stream.
   */
  private overflow(chunk: Buffer | null): void {
    this.detachBuffer();
    const req = this.req;
    req.pause();
    if (chunk !== null) req.unshift(chunk);
    const prefix = this.buffer!.bytes();
    if (prefix.byteLength > 0) req.unshift(prefix);
    this.stream();
  }

  private readonly onBufferEnd = (): void => {
    const bytes = this.buffer!.bytes();
    this.detachBuffer();
    this.ended = true;
    this.mode = 'over';
    this.limits.pace.unwatch(this);
    this.events.whole(bytes);
  };

  private detachBuffer(): void {
    this.req.off('data', this.onBufferData);
    this.req.off('end', this.onBufferEnd);
  }

  private stream(): void {
    const req = this.req;
    this.mode = 'stream';
    this.deadline = Infinity;
    // Paused first, so that adding listeners does not start the flow: the upstream client resumes it when it writes.
    req.pause();
    req.on('data', this.onStreamData);
    req.once('end', this.onStreamEnd);
    this.limits.pace.watch(this, performance.now());
    this.events.streaming();
  }

  private readonly onStreamData = (chunk: Buffer): void => {
    this.streamed += chunk.byteLength;
  };

  private readonly onStreamEnd = (): void => {
    this.ended = true;
    this.stop();
  };
}
