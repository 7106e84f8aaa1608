import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { waitFor } from './net.js';

export type Json = Record<string, any>;

/** A real HTTP client of the LLM plugin's routes, with the project key in X-Service-Project-Key. */
export function llmClient(base: string) {
  const send = async (path: string, key: string | undefined, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (key !== undefined) headers.set('X-Service-Project-Key', key);
    const res = await fetch(`${base}${path}`, { ...init, headers });
    const text = await res.text();
    let body: any = text;
    try { body = JSON.parse(text); } catch { /* not JSON */ }
    return { status: res.status, headers: res.headers, body };
  };
  return {
    send,
    /** POST /v1/traces with `{ traces }` (or any body), JSON, optionally gzip. */
    ingest(key: string | undefined, body: unknown, options: { gzip?: boolean; headers?: Record<string, string> } = {}) {
      const raw = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
      const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
      if (options.gzip) headers['content-encoding'] = 'gzip';
      return send('/v1/traces', key, { method: 'POST', headers, body: options.gzip ? gzipSync(raw) : raw });
    },
    get: (key: string | undefined, path: string) => send(path, key),
    /** Waits until every id is stored (the persist stage runs after the 202). */
    async waitForTraces(key: string, ids: string[], timeoutMs = 15_000): Promise<Json[]> {
      const out: Json[] = [];
      for (const id of ids) {
        out.push(await waitFor(async () => {
          const r = await send(`/api/v1/traces/${id}`, key);
          return r.status === 200 ? r.body : null;
        }, { timeoutMs, what: `trace ${id} stored` }));
      }
      return out;
    },
    /** The dashboard's API with the bearer token. */
    dashboard(token: string, path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      headers.set('Authorization', `Bearer ${token}`);
      if (init.body !== undefined) headers.set('content-type', 'application/json');
      return send(path, undefined, { ...init, headers });
    },
  };
}

/** A plausible trace item of about `bytes` bytes. */
export function traceItem(overrides: Json = {}, bytes = 0): Json {
  const item: Json = {
    model: 'gpt-4o-mini-2024-07-18',
    latency_ms: 120,
    tokens: { input: 1000, output: 200 },
    input: [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: 'What is the capital of France?' }],
    output: { role: 'assistant', content: 'Paris.' },
    ...overrides,
  };
  if (bytes > 0) {
    const size = JSON.stringify(item).length;
    if (size < bytes) item.metadata = { ...(item.metadata ?? {}), padding: 'x'.repeat(bytes - size - 30) };
  }
  return item;
}

/**
 * POST over a bare TCP socket, for bodies the server refuses before reading them all (413): the body is written in
 * 64 KiB chunks until it is all sent (or `sendBytes` of it) or the server closes, and whatever the server answered is
 * returned. fetch and node:http report EPIPE instead when the server answers and closes mid-upload. Stop at
 * `sendBytes` to keep the answer: bytes that reach a server after it closed make its kernel reset the connection,
 * which discards an answer the client has not read yet.
 */
export function postEarlyAnswer(url: string, headers: Record<string, string>, body: Buffer, options: { chunked?: boolean; sendBytes?: number } = {}): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname);
    let received = '';
    let closed = false;
    socket.on('data', (d) => { received += d.toString('latin1'); });
    socket.on('error', () => { closed = true; });
    socket.on('close', () => {
      closed = true;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      if (!status) reject(new Error(`no HTTP answer: ${JSON.stringify(received.slice(0, 200))}`));
      else resolve({ status, text: received.slice(received.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('connect', async () => {
      const framing = options.chunked ? 'transfer-encoding: chunked' : `content-length: ${body.length}`;
      const head = [`POST ${u.pathname} HTTP/1.1`, `host: ${u.host}`, framing, 'connection: close',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
      socket.write(`${head}\r\n\r\n`);
      const end = Math.min(body.length, options.sendBytes ?? body.length);
      for (let at = 0; at < end && !closed; at += 65_536) {
        const piece = body.subarray(at, Math.min(end, at + 65_536));
        const ok = socket.write(options.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
        if (!ok) await new Promise((r) => { socket.once('drain', r); socket.once('close', r); });
      }
      if (!closed && options.chunked && end === body.length) socket.write('0\r\n\r\n');
    });
  });
}
