// A real HTTP server speaking the native ingest contract of POST /v1/traces, for the Node client's tests until they
// run against `vigil run` itself: header X-Service-Project-Key (401 when wrong), a JSON body `{ "traces": [ … ] }`,
// gzip or not (400 when unreadable), 413 over `maxItems` or `maxBodyBytes`, and 202 `{ accepted, rejected, errors:
// [{ index, code, message, path }], ids }` with items validated one by one (an item without a model is rejected).
//
// A test scripts the next answers (`script.push(…)`): a status (429 with Retry-After, 503, 400, …), `accept` (the
// normal answer, to let a batch through before the scripted ones), or an action on the connection: `drop` reads the batch and destroys the socket unanswered, `hang` never answers, `crash` records the
// batch, then closes the server with every connection and listens again on the same port after `downMs`.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';

export type Behaviour =
  | { status: number; retryAfter?: string }
  | { action: 'accept' }
  | { action: 'drop' }
  | { action: 'hang' }
  | { action: 'crash'; downMs: number };

export interface ReceivedBatch {
  /** Date.now() when the request's body had arrived. */
  at: number;
  headers: IncomingHttpHeaders;
  gzip: boolean;
  /** Bytes on the wire (compressed when gzip). */
  bytes: number;
  items: any[];
  /** The status answered, or what was done instead. */
  answer: number | 'drop' | 'hang' | 'crash';
}

export interface TraceReceiver {
  url: string;
  port: number;
  batches: ReceivedBatch[];
  script: Behaviour[];
  /** Items answered 202 and accepted, once per id (a retried batch counts once, as the server's idempotency makes it). */
  stored(): Map<string, any>;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  key?: string;
  maxItems?: number;
  maxBodyBytes?: number;
  /** Rejects an item (in the 202's errors) when it returns a message; by default only items without a model are. */
  rejectIf?: (item: any) => string | undefined;
}

export async function startTraceReceiver({ key = 'test-key', maxItems = 1000, maxBodyBytes = 5 << 20, rejectIf }: ReceiverOptions = {}): Promise<TraceReceiver> {
  const batches: ReceivedBatch[] = [];
  const script: Behaviour[] = [];
  const stored = new Map<string, any>();
  let server: Server;
  let port = 0;

  const listen = (): Promise<void> => new Promise((resolve) => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const reply = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(body));
        };
        const fail = (status: number, code: string, message: string): void => reply(status, { error: { code, message } });
        const raw = Buffer.concat(chunks);
        const gzip = req.headers['content-encoding'] === 'gzip';
        if (req.method !== 'POST' || req.url !== '/v1/traces') return fail(404, 'not_found', `no route ${req.method} ${req.url}`);
        if (req.headers['x-service-project-key'] !== key) return fail(401, 'unknown_key', 'unknown project key');
        if (raw.length > maxBodyBytes) return fail(413, 'too_large', `the body is over ${maxBodyBytes} bytes`);
        let body: any;
        try { body = JSON.parse((gzip ? gunzipSync(raw) : raw).toString('utf8')); } catch { return fail(400, 'malformed', 'the body is not JSON'); }
        if (!body || !Array.isArray(body.traces)) return fail(400, 'malformed', 'the body is not an object with traces');
        const batch: ReceivedBatch = { at: Date.now(), headers: req.headers, gzip, bytes: raw.length, items: body.traces, answer: 202 };
        batches.push(batch);
        if (body.traces.length > maxItems) { batch.answer = 413; return fail(413, 'too_large', `the batch is over ${maxItems} items`); }

        const next = script.shift();
        if (next && 'action' in next && next.action !== 'accept') {
          batch.answer = next.action;
          if (next.action === 'drop') { res.socket?.destroy(); return; }
          if (next.action === 'hang') return;
          const { downMs } = next;
          for (const item of body.traces) if (item?.id) stored.set(item.id, item);
          server.closeAllConnections();
          server.close(() => setTimeout(() => { void listen(); }, downMs));
          return;
        }
        if (next && 'status' in next) {
          batch.answer = next.status;
          return reply(next.status, { error: { code: 'scripted', message: `scripted ${next.status}` } }, next.retryAfter ? { 'retry-after': next.retryAfter } : {});
        }
        const errors: { index: number; code: string; message: string; path: string }[] = [];
        const ids: string[] = [];
        body.traces.forEach((item: any, index: number) => {
          if (typeof item?.model !== 'string' || item.model === '') {
            errors.push({ index, code: 'required', message: 'model is required', path: `/traces/${index}/model` });
            return;
          }
          const refused = rejectIf?.(item);
          if (refused) {
            errors.push({ index, code: 'invalid', message: refused, path: `/traces/${index}` });
            return;
          }
          const id = item.id ?? `server-${batches.length}-${index}`;
          stored.set(id, item);
          ids.push(id);
        });
        reply(202, { accepted: ids.length, rejected: errors.length, errors, ids });
      });
    });
    server.listen(port, '127.0.0.1', () => {
      port = (server.address() as { port: number }).port;
      resolve();
    });
  });
  await listen();

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    batches,
    script,
    stored: () => stored,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
