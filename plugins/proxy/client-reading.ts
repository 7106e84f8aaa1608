import type { ServerResponse } from 'node:http';
import type { PacedBody, SlowBody } from './body-pace.js';

/**
 * A response on its way to the client, as the pace watch sees it while the upstream connection waits on the client
 * (undici is paused until `res` drains). The client has taken what was written minus what still waits in Node's
 * and the socket's buffers; the wait is the client's only while the gateway waits for a drain.
 */
export class ClientReading implements PacedBody {
  readonly deadline = Infinity;
  /** Bytes of the response body handed to `res.write`. */
  written = 0;

  constructor(private readonly res: ServerResponse, private readonly onSlow: (why: SlowBody) => void) {}

  get received(): number {
    return this.written - this.res.writableLength;
  }

  waitingOnClient(): boolean {
    return this.res.writableNeedDrain;
  }

  tooSlow(why: SlowBody): void {
    this.onSlow(why);
  }
}
