// The same small API as an Express app and as a Koa app, each with the Vigil middleware mounted behind a switch, so
// one server answers with the middleware off (the gateway's upstream, or the baseline) and on.
import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import express from 'express';
import Koa from 'koa';

export type Framework = 'express' | 'koa';

/** What the middleware hands a framework: something to mount, and a flush for the tests. */
export type Mountable = ((...args: any[]) => unknown) & { flush(deadlineMs?: number): Promise<void>; close(): Promise<void> };

export interface TestApp {
  port: number;
  /** Mount the middleware (on) or not (off) for requests from now on. */
  use(middleware: Mountable | null): void;
  close(): Promise<void>;
}

/** `/api/users/stream/…` answers in chunks, with no Content-Length (chunked on the wire), in both frameworks. */
const STREAMED = ['{"part":1,', '"password":"chunked",', '"part2":2}'];

/** The API's answer to one request, identical in both frameworks. */
function answer(method: string, path: string, body: Buffer, contentType: string | undefined): { status: number; type: string; body: string } {
  if (path === '/api/search/boom') return { status: 500, type: 'application/json', body: JSON.stringify({ error: 'boom', password: 'p' }) };
  if (path.startsWith('/api/echo/large')) return { status: 200, type: 'text/plain', body: 'y'.repeat(5_000) };
  let parsed: unknown = null;
  if (contentType?.startsWith('application/json') && body.length > 0) {
    try { parsed = JSON.parse(body.toString('utf8')); } catch { parsed = 'not json'; }
  }
  return {
    status: method === 'POST' ? 201 : 200,
    type: 'application/json',
    body: JSON.stringify({ method, path, bytes: body.length, password: 'server-side', echo: parsed }),
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

function closer(server: Server): () => Promise<void> {
  return () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
}

export async function startExpressApp(): Promise<TestApp> {
  let mounted: Mountable | null = null;
  const app = express();
  app.use((req, res, next) => (mounted ? (mounted as express.RequestHandler)(req, res, next) : next()));
  // body-parser inflates gzip itself, reading the request through zlib (as an app would).
  app.use(express.raw({ type: () => true, limit: '1mb' }));
  app.all('/api/users/stream/*', (_req, res) => {
    res.type('application/json');
    for (const part of STREAMED.slice(0, -1)) res.write(part);
    res.end(STREAMED[STREAMED.length - 1]);
  });
  app.all('*', (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const a = answer(req.method, req.path, body, req.headers['content-type']);
    res.status(a.status).type(a.type).send(a.body);
  });
  const server = createServer(app);
  const port = await listen(server);
  return { port, use: (m) => { mounted = m; }, close: closer(server) };
}

export async function startKoaApp(): Promise<TestApp> {
  let mounted: Mountable | null = null;
  const app = new Koa();
  app.use((ctx, next) => (mounted ? (mounted as Koa.Middleware)(ctx, next) : next()));
  app.use(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (ctx.path.startsWith('/api/users/stream/')) {
      ctx.type = 'application/json';
      ctx.body = Readable.from(STREAMED);
      return;
    }
    if (ctx.get('content-encoding') === 'gzip') body = gunzipSync(body);
    const a = answer(ctx.method, ctx.path, body, ctx.get('content-type') || undefined);
    ctx.status = a.status;
    ctx.type = a.type;
    ctx.body = a.body;
  });
  const server = createServer(app.callback());
  const port = await listen(server);
  return { port, use: (m) => { mounted = m; }, close: closer(server) };
}

export const startApp = (framework: Framework): Promise<TestApp> => (framework === 'express' ? startExpressApp() : startKoaApp());
