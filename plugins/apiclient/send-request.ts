// Sends one filled-in request from the server: a fresh connection (no agent, so DNS, connect and TLS are measured
// each time), one deadline over the whole exchange, and a byte cap on the body read (decompressed bytes when the
// answer is compressed). Memory: the body read so far, at most `maxBytes`.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { httpError } from '@vigil/plugin-sdk';
import { ApiClientErrors, badRequest } from './errors.js';

/** `shownUrl` is what messages may quote: the URL with secret values masked. */
export interface Outgoing { method: string; url: string; shownUrl?: string; headers: [string, string][]; body: string }

/** Milliseconds from the start; null where the phase did not happen (a reused address, plain http has no TLS). */
export interface Timings { dns_ms: number | null; connect_ms: number | null; tls_ms: number | null; first_byte_ms: number | null; total_ms: number }

export interface Received {
  status: number;
  status_text: string;
  http_version: string;
  headers: [string, string][];
  body: Buffer;
  /** Bytes read; when `truncated`, the body went on past `maxBytes` and the connection was closed there. */
  size_bytes: number;
  truncated: boolean;
  timings: Timings;
}

/** Headers Node sets itself or that would break framing if the editor's copy were sent as well. */
const MANAGED = new Set(['content-length', 'transfer-encoding', 'connection', 'host']);

const DEFAULT_HEADERS: [string, string][] = [['User-Agent', 'vigil-apiclient/0.1'], ['Accept', '*/*']];

/** The headers as they go on the wire: the editor's, then the defaults it did not set. */
export function wireHeaders(headers: [string, string][]): [string, string][] {
  const own = headers.filter(([n]) => !MANAGED.has(n.toLowerCase()));
  const named = new Set(own.map(([n]) => n.toLowerCase()));
  return [...own, ...DEFAULT_HEADERS.filter(([n]) => !named.has(n.toLowerCase()))];
}

function decoded(res: IncomingMessage): Readable {
  switch ((res.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip': case 'x-gzip': return res.pipe(createGunzip());
    case 'deflate': return res.pipe(createInflate());
    case 'br': return res.pipe(createBrotliDecompress());
    default: return res;
  }
}

export function sendRequest(out: Outgoing, limits: { timeoutMs: number; maxBytes: number }): Promise<Received> {
  let url: URL;
  try {
    url = new URL(out.url);
  } catch {
    throw badRequest(`"${out.shownUrl ?? out.url}" is not an absolute URL; write it as http://host/path or https://host/path`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`the API client sends http:// and https:// requests, not ${url.protocol}`);
  const body = out.body ? Buffer.from(out.body) : null;
  const headers = wireHeaders(out.headers);
  // Node adds no Host of its own when the headers are given as a list (which keeps their order and repeats).
  const flat: string[] = ['Host', url.host, ...headers.flat()];
  if (body) flat.push('Content-Length', String(body.length));
  const started = performance.now();
  const since = () => Math.round((performance.now() - started) * 10) / 10;
  const timings: Timings = { dns_ms: null, connect_ms: null, tls_ms: null, first_byte_ms: null, total_ms: 0 };
  return new Promise<Received>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, value?: Received) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value!);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let req: ReturnType<typeof httpRequest>;
    try {
      req = send(url, { method: out.method, headers: flat, agent: false, setHost: false });
    } catch (err) {
      throw badRequest(`the request cannot be sent as written: ${(err as Error).message}`);
    }
    const timer = setTimeout(() => {
      req.destroy();
      finish(httpError(ApiClientErrors.TIMEOUT, `${url.host} did not answer within ${limits.timeoutMs} ms; the connection was closed`));
    }, limits.timeoutMs);
    req.on('socket', (socket: Socket) => {
      socket.once('lookup', () => { timings.dns_ms = since(); });
      socket.once('connect', () => { timings.connect_ms = since(); });
      socket.once('secureConnect', () => { timings.tls_ms = since(); });
    });
    req.on('error', (err) => finish(httpError(ApiClientErrors.UNREACHABLE, `${url.host}: ${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`.trim())));
    req.on('response', (res) => {
      timings.first_byte_ms = since();
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const stream = decoded(res);
      const done = () => {
        timings.total_ms = since();
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        finish(null, {
          status: res.statusCode ?? 0, status_text: res.statusMessage ?? '', http_version: res.httpVersion, headers: pairs,
          body: Buffer.concat(chunks), size_bytes: size, truncated, timings,
        });
      };
      stream.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = limits.maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size += room;
          truncated = true;
          done();
          res.destroy();
          req.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      stream.on('end', done);
      stream.on('error', (err) => (size > 0 ? done() : finish(httpError(ApiClientErrors.UNREACHABLE, `${url.host}: the body could not be read: ${err.message}`))));
      res.on('aborted', () => (truncated ? undefined : finish(httpError(ApiClientErrors.UNREACHABLE, `${url.host} closed the connection before the body ended`))));
    });
    req.end(body ?? undefined);
  });
}
