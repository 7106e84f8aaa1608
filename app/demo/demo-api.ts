/**
 * The demo's upstream: a small shop API on a loopback port (routes in demo-routes.ts). It checks API keys, answers
 * JSON after a latency shaped like a real service's, and has a bad minute now and then: every few minutes its card
 * processor slows down and fails a third of the charges for about twenty seconds.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { ADMIN_KEY, TENANTS } from './demo-data.js';
import { errorAnswer, findRoute, type DemoAnswer } from './demo-routes.js';
import { latency } from './random.js';

/** Request bodies the demo API reads, at most (bytes). */
const BODY_LIMIT = 256 * 1024;

export interface DemoApiOptions {
  /** When the card processor's bad minutes start, in ms after start, and how long they last. */
  incidents?: { firstAfterMs: number; everyMs: number; lastsMs: number };
}

export interface DemoApi {
  url: string;
  /** Stops listening and closes every connection; the answers still waiting are dropped. */
  close(): Promise<void>;
}

const DEFAULT_INCIDENTS = { firstAfterMs: 40_000, everyMs: 180_000, lastsMs: 20_000 };

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= BODY_LIMIT) chunks.push(c);
    });
    req.on('end', () => resolve(size > BODY_LIMIT ? undefined : Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
  });
}

function bearer(authorization: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return m?.[1];
}

/** A request as the demo API reads it: what `answerRequest` needs, whether it came over HTTP or is made up for the history. */
export interface DemoApiRequest {
  method: string;
  /** Path and query. */
  target: string;
  authorization: string | undefined;
  /** The body's bytes; undefined when it was past the API's limit. */
  body: Buffer | undefined;
}

/** The API's answer to a request (routing, keys, then the route's handler), before its latency is waited out. */
export function answerRequest(req: DemoApiRequest, incident: boolean): DemoAnswer {
  const url = new URL(req.target || '/', 'http://demo.invalid');
  const method = req.method;
  if (url.pathname === '/health') return { status: 200, body: { status: 'ok' }, delayMs: 1 };
  const raw = req.body;
  if (raw === undefined) return errorAnswer(413, 'body_too_large', `Request bodies are limited to ${BODY_LIMIT} bytes`, 2);
  let found;
  try {
    found = findRoute(method, url.pathname);
  } catch {
    return errorAnswer(400, 'invalid_path', 'The path is not valid', 2);
  }
  if (!found) return errorAnswer(404, 'not_found', `No route ${method} ${url.pathname}`, latency(5, 0.3));
  const key = bearer(req.authorization);
  const tenant = TENANTS.find((t) => t.key === key);
  const admin = key === ADMIN_KEY;
  if (!tenant && !admin) {
    return errorAnswer(401, 'invalid_api_key', key ? 'The API key is not valid (revoked or mistyped)' : 'An API key is required', latency(6, 0.3));
  }
  if (found.route.auth === 'admin' && !admin) return errorAnswer(403, 'forbidden', 'The admin API needs an operator key', latency(6, 0.3));
  let body: unknown;
  if (raw.length > 0) {
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return errorAnswer(400, 'invalid_json', 'The body is not JSON', latency(5, 0.3));
    }
  }
  return found.route.handler({ method, path: url.pathname, query: url.searchParams, body, tenant, admin, incident }, found.params);
}

/** The headers the API sends with an answer. */
export const answerHeaders = (a: DemoAnswer): Record<string, string> => ({
  'content-type': 'application/json; charset=utf-8',
  'x-request-id': `req_${randomBytes(8).toString('hex')}`,
  ...a.headers,
});

async function answer(req: IncomingMessage, incident: boolean): Promise<DemoAnswer> {
  const body = await readBody(req);
  return answerRequest({ method: req.method ?? 'GET', target: req.url ?? '/', authorization: req.headers.authorization, body }, incident);
}

/** Starts the demo API on 127.0.0.1 (port 0: any free port). */
export async function startDemoApi(options: DemoApiOptions = {}, port = 0): Promise<DemoApi> {
  const incidents = options.incidents ?? DEFAULT_INCIDENTS;
  const startedAt = Date.now();
  const inIncident = (): boolean => {
    const t = Date.now() - startedAt - incidents.firstAfterMs;
    return t >= 0 && t % incidents.everyMs < incidents.lastsMs;
  };
  const timers = new Set<NodeJS.Timeout>();
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    void answer(req, inIncident()).then((a) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (a.reset) { req.socket.destroy(); return; }
        const text = a.body === undefined ? '' : JSON.stringify(a.body);
        res.writeHead(a.status, answerHeaders(a));
        res.end(text);
      }, a.delayMs);
      timers.add(timer);
    });
  };
  const server: Server = createServer({ keepAliveTimeout: 30_000 }, handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
