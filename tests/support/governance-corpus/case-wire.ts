// A corpus case on the wire: its request as exact bytes sent on a connection of its own, the answer read to the end
// of its framing; and its response as the exact bytes a scripted upstream writes.
import { STATUS_CODES } from 'node:http';
import { connect } from 'node:net';
import { bodyOf, type CorpusEntry } from './corpus-file.js';

const isChunked = (headers: readonly [string, string][]) => headers.some(([n, v]) => n.toLowerCase() === 'transfer-encoding' && /chunked/i.test(v));

/** A body as one chunk and the last chunk, when its headers say `Transfer-Encoding: chunked`; else as it is. */
function framed(headers: readonly [string, string][], body: Buffer): Buffer {
  if (!isChunked(headers)) return body;
  return Buffer.concat([Buffer.from(body.length > 0 ? `${body.length.toString(16)}\r\n` : '', 'latin1'), body, Buffer.from(body.length > 0 ? '\r\n0\r\n\r\n' : '0\r\n\r\n', 'latin1')]);
}

/** The request's bytes: request line, the case's header lines in order, the body (chunked when its headers say so). */
export function requestBytes(c: CorpusEntry): Buffer {
  const head = [`${c.request.method} ${c.request.target} HTTP/1.1`, ...c.request.headers.map(([n, v]) => `${n}: ${v}`)].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), framed(c.request.headers, bodyOf(c.request))]);
}

/** The response's bytes as an upstream writes them (reason phrases are Node's; records do not hold them). */
export function responseBytes(c: CorpusEntry): Buffer {
  const { status, headers } = c.response;
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Status'}`, ...headers.map(([n, v]) => `${n}: ${v}`)].join('\r\n');
  const bodiless = c.request.method === 'HEAD' || status === 204 || status === 304;
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), bodiless ? Buffer.alloc(0) : framed(headers, bodyOf(c.response))]);
}

/** The status of an answer, or why none was read. */
export interface Answer { status: number; error?: string }

/** Where the answer in `got` ends (bytes), or -1 while it is not whole. */
function answerEnd(got: Buffer, method: string): number {
  const text = got.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd === -1) return -1;
  const head = text.slice(0, headEnd);
  const status = Number(head.slice(9, 12));
  const start = headEnd + 4;
  if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) return start;
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
    const last = text.indexOf('\r\n0\r\n\r\n', start - 2);
    return last === -1 ? -1 : last + 7;
  }
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length === null) return -1;
  return got.length >= start + Number(length[1]) ? start + Number(length[1]) : -1;
}

/** Sends the case's request to 127.0.0.1:`port` and reads the answer whole (or to the close), within `timeoutMs`. */
export function sendCase(port: number, c: CorpusEntry, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect(port, '127.0.0.1', () => socket.write(requestBytes(c)));
    const done = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const got = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(got);
      resolve({ status: status ? Number(status[1]) : 0, ...(error === undefined ? {} : { error }) });
    };
    const timer = setTimeout(() => done(`no whole answer within ${timeoutMs} ms`), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (answerEnd(Buffer.concat(chunks), c.request.method) !== -1) done();
    });
    socket.on('end', () => done());
    socket.on('close', () => done());
    socket.on('error', (err) => done(err.message));
  });
}
