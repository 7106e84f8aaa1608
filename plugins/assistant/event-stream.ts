import { PassThrough } from 'node:stream';
import type { RouteContext } from '@vigil/plugin-sdk';

/** A server-sent event stream to the browser, open on `ctx`; `closed` aborts when the browser goes away. */
export interface EventStream {
  send(event: string, data: unknown): void;
  end(): void;
  /** Aborts when the client closes the connection before the stream ended (Esc, Stop, a closed tab). */
  readonly closed: AbortSignal;
}

export function openEventStream(ctx: RouteContext): EventStream {
  const body = new PassThrough();
  const closed = new AbortController();
  let ended = false;
  ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
  ctx.set('Cache-Control', 'no-store');
  // Proxies that buffer responses (nginx) would hold the answer back.
  ctx.set('X-Accel-Buffering', 'no');
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.body = body;
  ctx.res.once('close', () => { if (!ended) closed.abort(); });
  return {
    closed: closed.signal,
    send(event, data) {
      if (!ended) body.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (ended) return;
      ended = true;
      body.end();
    },
  };
}
