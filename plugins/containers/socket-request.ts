import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** Where an engine's API answers: a unix socket (Docker, Podman, LXD, Incus), or a base URL (a Kubernetes API server). */
export interface ApiEndpoint {
  socketPath?: string;
  /** `https://host:port` (or http) with an optional path prefix; unused with `socketPath`. */
  baseUrl?: string;
  /** TLS material for a base URL (a kubeconfig's CA, client certificate and key). */
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer; insecure?: boolean };
  headers?: Record<string, string>;
}

export interface ApiAnswer {
  status: number;
  body: Buffer;
  /** The body passed `maxBytes` and was cut there. */
  cut: boolean;
}

/** An engine that did not answer within its time: the message the panel shows. */
export class NoAnswer extends Error {
  constructor(readonly afterMs: number) {
    super(`no answer in ${afterMs >= 1000 ? `${Math.round(afterMs / 100) / 10} s` : `${afterMs} ms`}`);
  }
}

/** The request could not be made (no socket, refused, reset): the engine is unreachable rather than slow. */
export class Unreachable extends Error {}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  /** The whole exchange, connection to last byte; past it the socket is destroyed and NoAnswer thrown. */
  timeoutMs: number;
  /** Bytes of body kept; the rest is not read (the socket is closed). */
  maxBytes: number;
  signal?: AbortSignal;
}

/** Opens a request to `path` on the endpoint; the caller reads the response (or a stream of it). */
export function openRequest(endpoint: ApiEndpoint, path: string, o: Omit<RequestOptions, 'maxBytes'>): Promise<IncomingMessage> {
  const body = o.body === undefined ? undefined : Buffer.from(JSON.stringify(o.body));
  const headers: Record<string, string> = { accept: 'application/json', ...endpoint.headers };
  if (body) { headers['content-type'] = 'application/json'; headers['content-length'] = String(body.length); }
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (err: Error | undefined, res?: IncomingMessage) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err); else resolve(res!);
    };
    const onAbort = () => { req.destroy(); done(new NoAnswer(o.timeoutMs)); };
    let req: ReturnType<typeof httpRequest>;
    if (endpoint.socketPath) {
      // Host `localhost`: Docker and LXD ignore it, but HTTP/1.1 requires one.
      req = httpRequest({ socketPath: endpoint.socketPath, path, method: o.method ?? 'GET', headers: { host: 'localhost', ...headers } });
    } else {
      // A server URL may carry a path prefix (a proxy's /k8s/clusters/x): the API path goes after it.
      const url = new URL(`${endpoint.baseUrl!.replace(/\/$/, '')}${path}`);
      const t = endpoint.tls ?? {};
      req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: o.method ?? 'GET', headers, ca: t.ca, cert: t.cert, key: t.key, rejectUnauthorized: !t.insecure,
      });
    }
    // The time limit covers connecting and the first byte; the reader of the body keeps it (readBounded).
    const timer = setTimeout(() => { req.destroy(); done(new NoAnswer(o.timeoutMs)); }, o.timeoutMs);
    timer.unref();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res) => { clearTimeout(timer); done(undefined, res); });
    req.on('error', (err: NodeJS.ErrnoException) => done(new Unreachable(err.code === 'ENOENT' ? 'the socket does not exist' : err.code === 'ECONNREFUSED' ? 'connection refused' : err.code === 'EACCES' ? 'permission denied on the socket' : err.message)));
    req.end(body);
  });
}

/** Reads at most `maxBytes` of a response, within `deadline` (epoch ms); past either the socket is closed. */
export function readBounded(res: IncomingMessage, maxBytes: number, deadline: number, timeoutMs: number): Promise<{ body: Buffer; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => { res.destroy(); reject(new NoAnswer(timeoutMs)); }, Math.max(0, deadline - Date.now()));
    timer.unref();
    res.on('data', (chunk: Buffer) => {
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size = maxBytes;
        clearTimeout(timer);
        res.destroy();
        resolve({ body: Buffer.concat(chunks), cut: true });
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    res.on('end', () => { clearTimeout(timer); resolve({ body: Buffer.concat(chunks), cut: false }); });
    res.on('error', (err) => { clearTimeout(timer); reject(new Unreachable(err.message)); });
  });
}

/** One bounded request: status and body within `timeoutMs` overall and `maxBytes`. */
export async function apiRequest(endpoint: ApiEndpoint, path: string, o: RequestOptions): Promise<ApiAnswer> {
  const deadline = Date.now() + o.timeoutMs;
  const res = await openRequest(endpoint, path, o);
  const { body, cut } = await readBounded(res, o.maxBytes, deadline, o.timeoutMs);
  return { status: res.statusCode ?? 0, body, cut };
}

/** The engine's own error message from a JSON error body (`{"message"}` Docker, `{"error"}` LXD, a Status for Kubernetes). */
export function engineMessage(answer: ApiAnswer): string {
  try {
    const parsed = JSON.parse(answer.body.toString('utf8')) as { message?: string; error?: string };
    return parsed.message ?? parsed.error ?? `HTTP ${answer.status}`;
  } catch {
    return answer.body.toString('utf8').slice(0, 200) || `HTTP ${answer.status}`;
  }
}
