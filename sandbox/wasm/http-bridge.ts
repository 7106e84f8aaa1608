// Extism's http_request for guests running on a worker's main thread. A WebAssembly import must return
// synchronously, so the request is handed to a helper thread (http-fetch-worker.ts) and this thread blocks on a
// shared buffer until the answer is there. Only hosts on the allow-list are reachable, and redirects are not
// followed (a redirect could leave the allow-list).
import { Worker } from 'node:worker_threads';
import type { CallContext } from '@extism/extism';
import { hostAllowed } from './host-allow-list.js';

export interface HttpBridgeOptions {
  allowedHosts: string[];
  maxResponseBytes: number;
  timeoutMs: number;
}

export interface HttpBridge {
  /** The http_request host function: returns the address of the response body block. Throws to trap the guest. */
  request(ctx: CallContext, requestAddr: bigint, bodyAddr: bigint): bigint;
  /** The http_status_code host function: status of the last request. */
  readonly lastStatus: number;
  close(): void;
}

/** Layout of the shared buffer: Int32 words, then the response bytes (or an error message). */
export const HTTP_STATE = 0;
export const HTTP_STATUS = 1;
export const HTTP_LENGTH = 2;
export const HTTP_DATA_OFFSET = 16;
export const HTTP_PENDING = 0;
export const HTTP_DONE = 1;
export const HTTP_FAILED = 2;

export interface FetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

interface Helper { worker: Worker; shared: SharedArrayBuffer; state: Int32Array }

export function createHttpBridge(options: HttpBridgeOptions): HttpBridge {
  let helper: Helper | undefined;
  let lastStatus = 0;
  const decoder = new TextDecoder();

  const start = (): Helper => {
    const shared = new SharedArrayBuffer(HTTP_DATA_OFFSET + options.maxResponseBytes);
    const worker = new Worker(new URL('./http-fetch-worker.js', import.meta.url), {
      workerData: { shared, timeoutMs: options.timeoutMs },
      execArgv: ['--no-warnings'],
    });
    worker.unref();
    return { worker, shared, state: new Int32Array(shared, 0, 4) };
  };

  const stop = () => {
    void helper?.worker.terminate();
    helper = undefined;
  };

  return {
    get lastStatus() { return lastStatus; },
    request(ctx, requestAddr, bodyAddr) {
      const raw = ctx.read(requestAddr);
      if (!raw) throw new Error('http_request: no request at the given address');
      let spec: { url?: unknown; method?: unknown; headers?: unknown; header?: unknown };
      try {
        spec = raw.json();
      } catch {
        throw new Error('http_request: the request is not JSON');
      }
      if (typeof spec.url !== 'string') throw new Error('http_request: the request has no url');
      let url: URL;
      try {
        url = new URL(spec.url);
      } catch {
        throw new Error(`http_request: invalid url ${JSON.stringify(spec.url)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new Error(`http_request: only http and https are allowed, not ${url.protocol}`);
      }
      if (!hostAllowed(url.hostname, options.allowedHosts)) {
        throw new Error(`http_request to "${url.hostname}" is not allowed (allowed hosts: ${options.allowedHosts.join(', ')})`);
      }
      const method = typeof spec.method === 'string' ? spec.method.toUpperCase() : 'GET';
      const headerSource = (spec.headers ?? spec.header ?? {}) as Record<string, unknown>;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(headerSource)) if (typeof value === 'string') headers[name] = value;
      const body = bodyAddr === 0n || method === 'GET' || method === 'HEAD' ? null : ctx.read(bodyAddr)?.bytes().slice() ?? null;

      helper ??= start();
      const { state, shared, worker } = helper;
      Atomics.store(state, HTTP_STATE, HTTP_PENDING);
      const message: FetchRequest = { url: url.href, method, headers, body };
      worker.postMessage(message);
      // Blocking is the point: the guest is waiting inside a synchronous import. The host's call limit still
      // holds, since it terminates this whole thread.
      const waited = Atomics.wait(state, HTTP_STATE, HTTP_PENDING, options.timeoutMs);
      if (waited === 'timed-out') {
        stop(); // a late answer must not land in the next request's buffer
        throw new Error(`http_request to ${url.host} timed out after ${options.timeoutMs} ms`);
      }
      const length = Atomics.load(state, HTTP_LENGTH);
      const bytes = new Uint8Array(shared, HTTP_DATA_OFFSET, length).slice();
      if (Atomics.load(state, HTTP_STATE) === HTTP_FAILED) {
        throw new Error(`http_request to ${url.host} failed: ${decoder.decode(bytes)}`);
      }
      lastStatus = Atomics.load(state, HTTP_STATUS);
      return ctx.store(bytes);
    },
    close: stop,
  };
}
