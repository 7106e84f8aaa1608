import { MiddlewareError, MiddlewareErrors } from './errors.js';

/** The options of @vigil/express and @vigil/koa. */
export interface VigilMiddlewareOptions {
  /** A vigil config file: its `rules` govern (and `capture.max_body_bytes` bounds the copies), as in `vigil run`. */
  configPath: string;
  /** The Vigil agent's control plane, e.g. `http://127.0.0.1:9095`; default `VIGIL_AGENT_URL`. */
  agentUrl?: string;
  /** Bearer token of the agent's ingest route (its `capture.ingest_token`); default `VIGIL_INGEST_TOKEN`. */
  token?: string;
  /** Bytes of body copies held at once (default 64 MiB); a copy that would pass it is not made, and the record says so. */
  queueBytes?: number;
  /** Exchanges waiting for governance (default 10,000); beyond, they are dropped and counted. */
  maxPending?: number;
  /** Governed records waiting to be sent (default 10,000); beyond, new ones are dropped and counted. */
  maxQueue?: number;
  /** Most records per POST to the agent (default 512). */
  batchSize?: number;
  /** Longest a record waits for its batch (default 1000 ms). */
  flushIntervalMs?: number;
  /** Each POST is given up after this long, and retried (default 10,000 ms). */
  timeoutMs?: number;
  /** First retry delay (default 500 ms), doubling up to `maxBackoffMs` (default 30,000 ms). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Where delivery problems and bugs are logged (default: `console.warn`, at most one line per 10 s per kind). */
  onError?(err: Error): void;
  /** Environment for `${VAR}` in the config file and the defaults above (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

export interface ResolvedOptions {
  configPath: string;
  ingestUrl: string;
  token: string;
  queueBytes: number;
  maxPending: number;
  maxQueue: number;
  batchSize: number;
  flushIntervalMs: number;
  timeoutMs: number;
  minBackoffMs: number;
  maxBackoffMs: number;
  env: NodeJS.ProcessEnv;
}

/** The agent's ingest route, below its control plane. */
export const INGEST_PATH = '/api/gateway/records';

function bad(message: string): MiddlewareError {
  return new MiddlewareError(MiddlewareErrors.OPTIONS, message);
}

function positive(options: VigilMiddlewareOptions, key: keyof VigilMiddlewareOptions, fallback: number): number {
  const v = options[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw bad(`${key} must be a positive number, not ${JSON.stringify(v)}`);
  return v;
}

/** Checks the options and fills defaults; throws a MiddlewareError (OPTIONS) naming the bad one. */
export function resolveOptions(options: VigilMiddlewareOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') throw bad('pass an options object: { configPath, agentUrl, token }');
  const env = options.env ?? process.env;
  if (typeof options.configPath !== 'string' || options.configPath === '') throw bad('configPath is required: the vigil config file whose rules govern');
  const agentUrl = options.agentUrl ?? env.VIGIL_AGENT_URL;
  if (typeof agentUrl !== 'string' || agentUrl === '') throw bad('agentUrl is required (or VIGIL_AGENT_URL): the Vigil agent\'s control plane, e.g. http://127.0.0.1:9095');
  let url: URL;
  try {
    url = new URL(agentUrl);
  } catch {
    throw bad(`agentUrl ${JSON.stringify(agentUrl)} is not a URL; write it as http://host:port`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(`agentUrl ${JSON.stringify(agentUrl)} must be http or https`);
  const token = options.token ?? env.VIGIL_INGEST_TOKEN;
  if (typeof token !== 'string' || token === '') throw bad('token is required (or VIGIL_INGEST_TOKEN): the agent\'s capture.ingest_token');
  return {
    configPath: options.configPath,
    ingestUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}${INGEST_PATH}`,
    token,
    queueBytes: positive(options, 'queueBytes', 64 * 1024 * 1024),
    maxPending: positive(options, 'maxPending', 10_000),
    maxQueue: positive(options, 'maxQueue', 10_000),
    batchSize: positive(options, 'batchSize', 512),
    flushIntervalMs: positive(options, 'flushIntervalMs', 1_000),
    timeoutMs: positive(options, 'timeoutMs', 10_000),
    minBackoffMs: positive(options, 'minBackoffMs', 500),
    maxBackoffMs: positive(options, 'maxBackoffMs', 30_000),
    env,
  };
}
