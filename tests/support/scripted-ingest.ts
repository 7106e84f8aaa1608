// A scripted POST /v1/traces on loopback for the clients' drivers: each request is recorded (its items, decoded from
// gzip when sent so, its headers and its arrival time) and answered by the scenario's `answer`, which can play every
// answer of the wire contract: 202 with per-item errors, 400, 401, 413, 429 with Retry-After, 5xx.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';

export type Json = Record<string, any>;

export interface IngestRequest {
  /** 1 for the first request. */
  n: number;
  items: Json[];
  encoding: string | undefined;
  key: string | undefined;
  contentType: string | undefined;
  /** performance.now() at arrival. */
  at: number;
}

export type IngestAnswer = 'accept' | { status: number; headers?: Record<string, string>; body?: unknown };

export interface ScriptedIngest {
  url: string;
  requests: IngestRequest[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the server; `answer` decides each request's answer ('accept' is a 202 accepting every item). */
export async function startScriptedIngest(answer: (req: IngestRequest) => IngestAnswer = () => 'accept'): Promise<ScriptedIngest> {
  const requests: IngestRequest[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const encoding = req.headers['content-encoding'];
      const text = (encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      const got: IngestRequest = {
        n: requests.length + 1, items: (JSON.parse(text) as { traces: Json[] }).traces, encoding,
        key: req.headers['x-service-project-key'] as string | undefined, contentType: req.headers['content-type'], at: performance.now(),
      };
      requests.push(got);
      const a = answer(got);
      if (a === 'accept') {
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ accepted: got.items.length, rejected: 0, sampled_out: 0, errors: [], ids: got.items.map((i) => i.id) }));
        return;
      }
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(a.body === undefined ? '' : JSON.stringify(a.body));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
