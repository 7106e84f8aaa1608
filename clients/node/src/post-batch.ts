/**
 * One `POST /v1/traces` of a batch, and what its answer means for the batch. The wire contract (plugins/llm/README.md):
 * header `X-Service-Project-Key`, body `{ "traces": [ … ] }`, gzip-encoded when that saves bytes; the server answers 202
 * `{ accepted, rejected, errors: [{ index, code, message, path }], ids }`, 401 for an unknown key, 400 for a body it
 * cannot read, 413 over the body or batch limit, 429 with Retry-After over the plan.
 *
 * node:http rather than fetch: the request can be destroyed at a deadline, the answer read up to a cap, and the
 * keep-alive agent's idle sockets never hold the process open.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { EncodedItem } from './encode-item.js';
import { parseRetryAfter } from './retry-delay.js';
import { CLIENT_VERSION } from './version.js';

const gzipAsync = promisify(gzip);

/** A rejected item as the server reports it in a 202. */
export interface ItemError {
  index: number;
  code?: string;
  message?: string;
  path?: string;
}

export type PostOutcome =
  | { kind: 'accepted'; accepted: number; rejected: number; errors: ItemError[] }
  /** Worth another attempt: a network error, a timeout, 5xx or 429. */
  | { kind: 'retry'; reason: string; status?: number; retryAfterMs?: number }
  /** 413: the batch is over the server's body or batch limit. */
  | { kind: 'too-large'; reason: string }
  /** Any other 4xx (or an unexpected status): sending the same batch again cannot succeed. */
  | { kind: 'refused'; status: number; reason: string };

export interface TransportOptions {
  /** The full URL of the ingest route. */
  endpoint: URL;
  projectKey: string;
  timeoutMs: number;
  /** Gzip bodies of at least this many bytes; 0 turns compression off. */
  gzipMinBytes: number;
}

/** Answers are read up to this many bytes: enough for any error list the server sends for a batch. */
const MAX_ANSWER_BYTES = 1 << 20;

export interface Transport {
  post(batch: readonly EncodedItem[]): Promise<PostOutcome>;
  /** Destroys the request in flight (its post() answers `retry`) and the idle sockets. */
  close(): void;
}

export function createTransport(options: TransportOptions): Transport {
  const { endpoint, projectKey, timeoutMs, gzipMinBytes } = options;
  const secure = endpoint.protocol === 'https:';
  // One socket: batches go one at a time, so one kept-alive connection is all the client ever needs.
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 1 }) : new http.Agent({ keepAlive: true, maxSockets: 1 });
  const inFlight = new Set<http.ClientRequest>();

  async function post(batch: readonly EncodedItem[]): Promise<PostOutcome> {
    let body: Buffer = Buffer.from(`{"traces":[${batch.map((i) => i.json).join(',')}]}`);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-service-project-key': projectKey,
      'user-agent': `vigil-llm-client-node/${CLIENT_VERSION}`,
    };
    if (gzipMinBytes > 0 && body.length >= gzipMinBytes) {
      body = await gzipAsync(body);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = String(body.length);

    return new Promise<PostOutcome>((resolve) => {
      let settled = false;
      const done = (outcome: PostOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        inFlight.delete(req);
        resolve(outcome);
      };
      const req = (secure ? https : http).request(endpoint, { method: 'POST', agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        res.on('error', (err) => done({ kind: 'retry', reason: `reading the answer: ${err.message}` }));
        res.on('end', () => done(classify(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString('utf8'), batch.length)));
      });
      // The whole exchange has one deadline, connection included; the socket, not this timer, keeps the process up.
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
      inFlight.add(req);
      req.on('error', (err) => done({ kind: 'retry', reason: (err as NodeJS.ErrnoException).code ? `${(err as NodeJS.ErrnoException).code}: ${err.message}` : err.message }));
      req.end(body);
    });
  }

  return {
    post,
    close() {
      for (const req of inFlight) req.destroy(new Error('the client stopped'));
      agent.destroy();
    },
  };
}

function parseJson(text: string): unknown {
  try { return JSON.parse(text); } catch { return undefined; }
}

/** The server's error message from the control plane's `{ error: { code, message } }` shape, or the raw text. */
function serverReason(status: number, text: string): string {
  const body = parseJson(text) as { error?: { code?: unknown; message?: unknown } } | undefined;
  const err = body?.error;
  const said = err && typeof err === 'object'
    ? [err.code, err.message].filter((v) => typeof v === 'string').join(': ')
    : text.slice(0, 200).trim();
  return said ? `HTTP ${status}: ${said}` : `HTTP ${status}`;
}

/** What an answer means for the batch it answers. Exported for the unit tests. */
export function classify(status: number, headers: http.IncomingHttpHeaders, text: string, items: number): PostOutcome {
  if (status >= 200 && status < 300) {
    const body = parseJson(text) as { accepted?: unknown; rejected?: unknown; errors?: unknown } | undefined;
    const errors = Array.isArray(body?.errors) ? (body.errors as ItemError[]).filter((e) => e && typeof e === 'object') : [];
    const rejected = typeof body?.rejected === 'number' ? body.rejected : errors.length;
    const accepted = typeof body?.accepted === 'number' ? body.accepted : items - rejected;
    return { kind: 'accepted', accepted, rejected, errors };
  }
  if (status === 429 || status >= 500) {
    return { kind: 'retry', status, reason: serverReason(status, text), retryAfterMs: parseRetryAfter(headers['retry-after']) };
  }
  if (status === 413) return { kind: 'too-large', reason: serverReason(status, text) };
  return { kind: 'refused', status, reason: serverReason(status, text) };
}
