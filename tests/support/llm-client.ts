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
