import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A streamed request body as undici reads it: a stream of its own in front of the client's request. undici destroys
 * the body it was given once the upstream exchange ends, early or not (an upstream that answered 413 before reading,
 * a cut); destroying the client's request would stop Node reading the connection, and the rest of the upload would
 * then reset it and lose the answer. This one is destroyed instead, and the request stays whole for lingeringClose.
 *
 * Backpressure is the request's own: it flows only while undici asks for more (`_read`), and pauses when this
 * stream's buffer (one highWaterMark) is full.
 */
export class UpstreamBody extends Readable {
  private ended = false;

  constructor(private readonly req: IncomingMessage) {
    super();
    req.on('data', this.onData);
    req.once('end', this.onEnd);
    req.once('close', this.onClose);
    req.once('error', this.onError);
  }

  override _read(): void {
    this.req.resume();
  }

  /**
   * undici is done with the body, and so is the exchange. A request this stream paused flows again: a lingering close
   * may be reading it already, and without one its bytes are dropped, as Node drops an unread body.
   */
  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.detach();
    if (!this.ended) this.req.resume();
    callback(err);
  }

  private readonly onData = (chunk: Buffer): void => {
    if (!this.push(chunk)) this.req.pause();
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    this.detach();
    this.push(null);
  };

  /** The client went away mid-body: undici must learn it, as it did when it read the request itself. */
  private readonly onClose = (): void => {
    if (!this.ended) this.destroy(new Error('the client closed the connection before its request body ended'));
  };

  private readonly onError = (err: Error): void => {
    this.destroy(err);
  };

  private detach(): void {
    this.req.off('data', this.onData);
    this.req.off('end', this.onEnd);
    this.req.off('close', this.onClose);
    this.req.off('error', this.onError);
  }
}
