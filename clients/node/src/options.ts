/**
 * The client's options, their defaults and the environment variables that stand in for them. Configuration never
 * throws: a missing key or an unusable URL makes a client that records nothing and says why once, through onError;
 * a number that is not a positive finite value falls back to its default.
 */
import type { VigilClientError } from './errors.js';

export interface ClientOptions {
  /** Vigil's control plane, `http://host:9095` (the route `/v1/traces` is added), or the full ingest URL. Env VIGIL_URL. */
  url?: string;
  /** The project key, sent as X-Service-Project-Key. Env VIGIL_PROJECT_KEY. */
  projectKey?: string;
  /** Items per request; a batch is sent as soon as this many wait. Default 100. */
  batchSize?: number;
  /** Fewer items are sent after this long. Default 1000 ms. */
  flushIntervalMs?: number;
  /** Bound on items held (waiting and in flight); beyond it new traces are dropped and counted. Default 10,000. */
  maxBufferItems?: number;
  /** Bound on the bytes of JSON held (waiting and in flight). Default 32 MiB. */
  maxBufferBytes?: number;
  /** Bytes of item JSON per request, before gzip. Default 2 MiB. */
  maxBatchBytes?: number;
  /** One item's JSON is truncated to this (inputs and outputs first, with markers). Default 512 KiB. */
  maxItemBytes?: number;
  /** Retries of a batch after network errors, 5xx and 429, before it is dropped. Default 5. */
  maxRetries?: number;
  /** The first retry waits about this long (half of it fixed, half random); each next one twice as long. Default 500 ms. */
  retryBaseMs?: number;
  /** Backoff never waits longer than this; a server's Retry-After is honoured as given. Default 30,000 ms. */
  retryMaxMs?: number;
  /** One request's deadline, connection included. Default 10,000 ms. */
  timeoutMs?: number;
  /** How long `flush()`, `shutdown()` and the flush at process exit wait for delivery. Default 5,000 ms. */
  shutdownTimeoutMs?: number;
  /** Gzip request bodies of 1 KiB and more. Default true. */
  gzip?: boolean;
  /** Send what is buffered when the process is about to exit (`beforeExit`). Default true. */
  flushOnExit?: boolean;
  /** Record prompts and completions (input and output); false keeps only model, tokens, timings and status. Default true. */
  captureContent?: boolean;
  /** Called for every loss or refusal, never with an exception to handle. Default: a process warning, once a minute per code. */
  onError?: (err: VigilClientError) => void;
}

export interface ResolvedOptions {
  endpoint: URL | undefined;
  projectKey: string | undefined;
  /** Why the client cannot send, when it cannot. */
  unusable: string | undefined;
  batchSize: number;
  flushIntervalMs: number;
  maxBufferItems: number;
  maxBufferBytes: number;
  maxBatchBytes: number;
  maxItemBytes: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  timeoutMs: number;
  shutdownTimeoutMs: number;
  gzipMinBytes: number;
  flushOnExit: boolean;
  captureContent: boolean;
}

const INGEST_PATH = 'v1/traces';

function positive(v: unknown, fallback: number, { allowZero = false } = {}): number {
  return typeof v === 'number' && Number.isFinite(v) && (v > 0 || (allowZero && v === 0)) ? Math.floor(v) : fallback;
}

/** The ingest URL for `url`: a base (any path prefix kept) gets `/v1/traces` added; a URL already ending so is kept. */
export function ingestEndpoint(url: string): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${parsed.protocol} is not http: or https:`);
  if (parsed.pathname.replace(/\/+$/, '').endsWith(`/${INGEST_PATH}`)) return parsed;
  const base = new URL(parsed.href);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  base.search = '';
  base.hash = '';
  return new URL(INGEST_PATH, base);
}

export function resolveOptions(options: ClientOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedOptions {
  const o = options && typeof options === 'object' ? options : {};
  const url = typeof o.url === 'string' && o.url ? o.url : env.VIGIL_URL || 'http://127.0.0.1:9095';
  const projectKey = typeof o.projectKey === 'string' && o.projectKey ? o.projectKey : env.VIGIL_PROJECT_KEY || undefined;
  let endpoint: URL | undefined;
  let unusable: string | undefined;
  try {
    endpoint = ingestEndpoint(url);
  } catch (err) {
    unusable = `the url ${JSON.stringify(url)} is not a usable http(s) URL (${(err as Error).message})`;
  }
  if (!projectKey && !unusable) unusable = 'no project key: pass projectKey or set VIGIL_PROJECT_KEY';
  return {
    endpoint,
    projectKey,
    unusable,
    batchSize: positive(o.batchSize, 100),
    flushIntervalMs: positive(o.flushIntervalMs, 1000),
    maxBufferItems: positive(o.maxBufferItems, 10_000),
    maxBufferBytes: positive(o.maxBufferBytes, 32 << 20),
    maxBatchBytes: positive(o.maxBatchBytes, 2 << 20),
    maxItemBytes: positive(o.maxItemBytes, 512 << 10),
    maxRetries: positive(o.maxRetries, 5, { allowZero: true }),
    retryBaseMs: positive(o.retryBaseMs, 500),
    retryMaxMs: positive(o.retryMaxMs, 30_000),
    timeoutMs: positive(o.timeoutMs, 10_000),
    shutdownTimeoutMs: positive(o.shutdownTimeoutMs, 5000),
    gzipMinBytes: o.gzip === false ? 0 : 1024,
    flushOnExit: o.flushOnExit !== false,
    captureContent: o.captureContent !== false,
  };
}
