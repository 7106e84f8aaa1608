// The conformance suite's server: `POST /v1/traces` on loopback, answering each request as the case's script says
// (docs/llm-wire-contract.md lists the answers). Every request is recorded, whatever it is answered, with what the
// contract requires of it checked: method, path, headers, encoding and the `{"traces": [...]}` envelope. A request
// that breaks the contract is recorded in `violations` and answered 400, as Vigil would.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';

export type Answer =
  /** The normal answer: each item checked on its own (a model is required; `reject` refuses more), 202. */
  | { kind: 'accept'; reject?: (item: any) => string | undefined }
  /** A status with the control plane's error body, and Retry-After when given. */
  | { kind: 'status'; status: number; retryAfter?: string }
  /** Reads the request, then destroys the connection unanswered. */
  | { kind: 'drop' }
  /** Never answers (the connection is destroyed when the server closes). */
  | { kind: 'hang' };

export interface ScriptedRequest {
  /** performance.now() when the body had arrived, ms. */
  at: number;
  headers: IncomingHttpHeaders;
  /** Bytes on the wire. */
  bytes: number;
  gzip: boolean;
  /** The batch's items, when the body could be read. */
  items: any[];
  answer: Answer;
}

export interface ScriptedIngest {
  url: string;
  requests: ScriptedRequest[];
  /** Ways a request broke the contract (method, path, headers, envelope), one line each. */
  violations: string[];
  /** Items answered 202 and accepted, by id, once each, with how many times each was accepted. */
  accepted: Map<string, { item: any; times: number }>;
  close(): Promise<void>;
}

/** Starts the server; `script(request, n)` picks the answer to the n-th request (0-based) with a readable body. */
export async function startScriptedIngest(options: { key: string; script: (req: Omit<ScriptedRequest, 'answer'>, n: number) => Answer }): Promise<ScriptedIngest> {
  const requests: ScriptedRequest[] = [];
  const violations: string[] = [];
  const accepted = new Map<string, { item: any; times: number }>();
  const sockets = new Set<Socket>();

  const reply = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void =>
    reply(res, status, { error: { code, message } }, headers);

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const raw = Buffer.concat(chunks);
      const where = `request ${requests.length + 1}`;
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        violations.push(`${where}: ${req.method} ${req.url}, not POST /v1/traces`);
        return fail(res, 404, 'VIGIL_ERR_NOT_FOUND', `no route ${req.method} ${req.url}`);
      }
      const type = String(req.headers['content-type'] ?? '');
      if (!/^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(type)) violations.push(`${where}: content-type ${JSON.stringify(type)}`);
      if (req.headers['x-service-project-key'] !== options.key) violations.push(`${where}: no X-Service-Project-Key, or another key`);
      const encoding = req.headers['content-encoding'];
      if (encoding !== undefined && encoding !== 'gzip') violations.push(`${where}: content-encoding ${JSON.stringify(encoding)}`);
      const gzip = encoding === 'gzip';
      let body: any;
      try { body = JSON.parse((gzip ? gunzipSync(raw) : raw).toString('utf8')); } catch {
        violations.push(`${where}: the body is not ${gzip ? 'gzip of ' : ''}JSON`);
        return fail(res, 400, 'VIGIL_ERR_LLM_BODY', 'the body is not JSON');
      }
      if (!body || typeof body !== 'object' || !Array.isArray(body.traces) || Object.keys(body).length !== 1) {
        violations.push(`${where}: the body is not {"traces": [...]} alone`);
        return fail(res, 400, 'VIGIL_ERR_LLM_BODY', 'the body is not {"traces": [...]}');
      }
      if (body.traces.length === 0) violations.push(`${where}: an empty batch`);
      const seen: Omit<ScriptedRequest, 'answer'> = { at, headers: req.headers, bytes: raw.length, gzip, items: body.traces };
      const answer = options.script(seen, requests.length);
      requests.push({ ...seen, answer });
      switch (answer.kind) {
        case 'drop': req.socket.destroy(); return;
        case 'hang': return;
        case 'status':
          return fail(res, answer.status, `SCRIPTED_${answer.status}`, `scripted ${answer.status}`, answer.retryAfter ? { 'retry-after': answer.retryAfter } : {});
        case 'accept': {
          if (req.headers['x-service-project-key'] !== options.key) return fail(res, 401, 'VIGIL_ERR_LLM_UNKNOWN_KEY', 'unknown project key');
          const errors: { index: number; code: string; message: string; path: string }[] = [];
          const ids: string[] = [];
          body.traces.forEach((item: any, index: number) => {
            if (!item || typeof item.model !== 'string' || item.model === '') {
              errors.push({ index, code: 'VIGIL_ERR_LLM_ITEM_INVALID', message: 'model is required', path: 'model' });
              return;
            }
            const why = answer.reject?.(item);
            if (why) {
              errors.push({ index, code: 'VIGIL_ERR_LLM_ITEM_INVALID', message: why, path: '' });
              return;
            }
            const id = typeof item.id === 'string' ? item.id : `server-${requests.length}-${index}`;
            const known = accepted.get(id);
            if (known) known.times++;
            else accepted.set(id, { item, times: 1 });
            ids.push(id);
          });
          return reply(res, 202, { accepted: ids.length, rejected: errors.length, sampled_out: 0, errors, ids });
        }
      }
    });
  });
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    violations,
    accepted,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
