import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long, and how much, a connection is read and discarded after an answer given before its body was read. */
export interface LingerLimits {
  /** ms from the answer to the cut, whatever the client still sends. */
  maxMs: number;
  /** Body bytes discarded at most; past them the connection is cut. */
  maxBytes: number;
}

/**
 * How a lingering close ended: the body `drained` to its end (then closed cleanly), the client closed first
 * (`client_closed`: fetch does once it has the answer), or a bound cut it (`time_limit`, `byte_limit`).
 */
export type LingerOutcome = 'drained' | 'client_closed' | 'time_limit' | 'byte_limit';

/** nginx's `lingering_time` is 30 s; an answer to a client still uploading needs far less on any real link. */
export const DEFAULT_LINGER: Readonly<LingerLimits> = Object.freeze({ maxMs: 5_000, maxBytes: 32 * 1024 * 1024 });

const LINGERING = Symbol('vigil.lingering');

/** Whether the request announces a body (a length above zero, or chunked framing) that has not been read to its end. */
export function bodyUnread(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return length !== undefined ? Number(length) > 0 : req.headers['transfer-encoding'] !== undefined;
}

/**
 * For an answer given while the client is still sending its body (a 413 on the announced length, a 401 before
 * reading, a 503 of a full buffer): the answer goes out with `Connection: close`, and the rest of the body is read
 * and discarded until it ends, the client closes, or `limits` are reached; only then is the socket closed. Called
 * after the answer's head went out with keep-alive (an upstream that answered before reading), the rest is read
 * the same way and the connection then carries the next request.
 *
 * Why: Node closes a `Connection: close` socket as soon as the answer is written. Bytes that reach a closed socket
 * make the kernel answer with a reset, which discards an answer the client has not read yet and fails the client's
 * upload (ECONNRESET, EPIPE): the client never sees the 413. This is nginx's lingering close: the answer, a FIN
 * (half-close: the client reads the answer to its end), then reading for a bounded time.
 *
 * Memory: nothing is kept; each chunk is counted and dropped. A hostile client holds the connection for at most
 * `maxMs` and makes the server read at most `maxBytes`. Nobody else may read `req` from now on (it is resumed).
 * Safe to call twice, and a no-op when the body was read to its end or the socket is gone.
 */
export function lingeringClose(req: IncomingMessage, res: ServerResponse, limits: LingerLimits = DEFAULT_LINGER,
  onDone?: (outcome: LingerOutcome) => void): void {
  const socket = req.socket as (Socket & { [LINGERING]?: true }) | null;
  if (!socket || socket.destroyed || socket[LINGERING] || !bodyUnread(req)) return;
  socket[LINGERING] = true;
  if (!res.headersSent) res.shouldKeepAlive = false;

  let outcome: LingerOutcome | undefined;
  let answered = false;
  let bytes = 0;
  const settle = (how: LingerOutcome): boolean => {
    if (outcome !== undefined) return false;
    outcome = how;
    clearTimeout(timer);
    socket.off('close', onClose);
    onDone?.(how);
    return true;
  };
  const cut = (how: LingerOutcome): void => {
    if (settle(how)) socket.destroy();
  };
  // All the client sent is read: closing now sends a FIN after the answer, never a reset.
  const close = (): void => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const onClose = (): void => { settle('client_closed'); };
  const timer = setTimeout(() => cut('time_limit'), limits.maxMs);
  timer.unref();
  socket.once('close', onClose);

  // Reading starts now: a request stream someone reads is never "dumped" by Node, whose parser then stops handing
  // its bytes to anyone (and they could not be counted).
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limits.maxBytes) cut('byte_limit');
  });
  req.once('end', () => {
    if (!settle('drained')) return;
    if (answered) {
      close();
    } else {
      // A keep-alive answer (or one still being written): the connection is whole again, and Node's own close
      // applies to whatever comes next.
      Reflect.deleteProperty(socket, 'destroySoon');   // the own property: net.Socket's own method shows again
      delete socket[LINGERING];
    }
  });
  req.on('error', () => {});
  req.resume();

  // Node calls destroySoon() once a `Connection: close` answer is written (net.Socket: end, then destroy when the
  // write side is done). Here: end (the answer, then FIN) and keep reading; the destroy waits for the body's end.
  socket.destroySoon = () => {
    answered = true;
    socket.end();
    if (outcome === 'drained') close();
  };
}
