import { VigilError } from '@vigil/plugin-sdk';
import type { SlowBody } from './body-pace.js';

/**
 * Error codes of the traffic lane. The upstream ones reach clients as `{ "error": { "code", "message" } }` with
 * the status below; the others stop the plugin at start-up.
 */
export const ProxyErrorCode = {
  /** The upstream refused or dropped the connection, or could not be resolved. 502. */
  upstreamUnreachable: 'VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE',
  /** The upstream did not answer within `service.timeout` (or connect within `service.connect_timeout`). 504. */
  upstreamTimeout: 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT',
  /** The upstream answered something that is not a valid HTTP response. 502. */
  upstreamBadResponse: 'VIGIL_ERR_PROXY_UPSTREAM_BAD_RESPONSE',
  /** A request the gateway cannot forward as received (e.g. an asterisk-form target, a duplicate Host). 400. */
  badRequest: 'VIGIL_ERR_PROXY_BAD_REQUEST',
  /** Anything else that went wrong inside the gateway while proxying. 502. */
  internal: 'VIGIL_ERR_PROXY_INTERNAL',
  /**
   * The client sent its request body too slowly: nothing, or less than `service.client_min_rate`, over a
   * `service.client_body_timeout` window, or not its buffered part within `service.request_buffer_timeout`. 408, and
   * the connection is closed (after the response started: cut). Also a client that read the response too slowly
   * over a `service.send_timeout` window while the upstream connection waited on it: the connection is cut.
   */
  clientTimeout: 'VIGIL_ERR_PROXY_CLIENT_TIMEOUT',
  /** Every upstream connection (`service.max_connections`) stayed busy for `service.queue_timeout`. 503, Retry-After. */
  queueTimeout: 'VIGIL_ERR_PROXY_QUEUE_TIMEOUT',
  /** The request buffers hold `service.request_buffer_memory` bytes already. 503, Retry-After. */
  buffersFull: 'VIGIL_ERR_PROXY_BUFFERS_FULL',
  /** The proxy cannot listen on `service.listen`. */
  listen: 'VIGIL_ERR_PROXY_LISTEN',
  /** The policy cannot drive the traffic lane (e.g. a label named like a built-in metric dimension). */
  config: 'VIGIL_ERR_PROXY_CONFIG',
} as const;

export type ProxyErrorCode = (typeof ProxyErrorCode)[keyof typeof ProxyErrorCode];

export class ProxyError extends VigilError {
  constructor(code: ProxyErrorCode, message: string, options?: { status?: number; cause?: unknown }) {
    super(code, message, options);
    this.name = 'ProxyError';
  }
}

/** What the client gets when the exchange fails before the upstream answered. */
export interface UpstreamFailure {
  status: 400 | 408 | 502 | 503 | 504;
  code: ProxyErrorCode;
  message: string;
  /** Seconds, for a `Retry-After` field (the failure is the gateway's load, not the request's fault). */
  retryAfter?: number;
}

const undiciTimeouts = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const unreachable = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'UND_ERR_SOCKET',
  'UND_ERR_CLOSED', 'UND_ERR_DESTROYED',
]);
const timeouts = new Set(['ETIMEDOUT']);

/**
 * Classifies an error raised by the upstream client. The message names the cause by its code only: the upstream's
 * address is the operator's business, not the client's (it is in the log).
 */
export function describeUpstreamError(err: unknown): UpstreamFailure {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  if (undiciTimeouts.has(code) || timeouts.has(code)) {
    const what = code === 'UND_ERR_CONNECT_TIMEOUT' ? 'connect to the upstream' : 'receive the upstream\'s response';
    return { status: 504, code: ProxyErrorCode.upstreamTimeout, message: `timed out waiting to ${what} (${code})` };
  }
  if (unreachable.has(code)) {
    return { status: 502, code: ProxyErrorCode.upstreamUnreachable, message: `the upstream could not be reached (${code})` };
  }
  if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED') {
    return { status: 400, code: ProxyErrorCode.badRequest, message: `the request cannot be forwarded: ${(err as Error).message}` };
  }
  if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' ||
    code === 'UND_ERR_HEADERS_OVERFLOW') {
    return { status: 502, code: ProxyErrorCode.upstreamBadResponse, message: `the upstream sent an invalid response (${code})` };
  }
  return { status: 502, code: ProxyErrorCode.internal, message: `the request could not be proxied${code ? ` (${code})` : ''}` };
}

/** The JSON body of an error response: `{ "error": { "code", "message" } }`, as the control plane answers too. */
export function errorBody(failure: UpstreamFailure): string {
  return JSON.stringify({ error: { code: failure.code, message: failure.message } });
}

/** The bounds a slow client ran into, for the message that tells it which. */
export interface ClientBodyBounds {
  clientBodyTimeoutMs: number;
  sendTimeoutMs: number;
  clientMinRate: number;
  requestBuffer: number;
  requestBufferTimeoutMs: number;
}

const seconds = (ms: number) => `${ms / 1000} s`;

/** 408: the request body came too slowly (`why` says which bound it ran into). */
export function clientTimeoutFailure(why: SlowBody, bounds: ClientBodyBounds): UpstreamFailure {
  const message = why === 'idle'
    ? `no byte of the request body arrived for ${seconds(bounds.clientBodyTimeoutMs)}`
    : why === 'rate'
      ? `the request body arrived at less than ${bounds.clientMinRate} bytes per second over ${seconds(bounds.clientBodyTimeoutMs)}`
      : `the first ${bounds.requestBuffer} bytes of the request body (all of it when shorter) did not arrive within ${seconds(bounds.requestBufferTimeoutMs)}`;
  return { status: 408, code: ProxyErrorCode.clientTimeout, message };
}

/** 408 (or a cut, once the response started): the client read the response too slowly. */
export function slowReaderFailure(why: SlowBody, bounds: ClientBodyBounds): UpstreamFailure {
  const message = why === 'idle'
    ? `the client read nothing of the response for ${seconds(bounds.sendTimeoutMs)}`
    : `the client read the response at less than ${bounds.clientMinRate} bytes per second over ${seconds(bounds.sendTimeoutMs)}`;
  return { status: 408, code: ProxyErrorCode.clientTimeout, message };
}

/** 503: no upstream connection came free in time. */
export function queueTimeoutFailure(queueTimeoutMs: number): UpstreamFailure {
  return {
    status: 503, code: ProxyErrorCode.queueTimeout, retryAfter: 1,
    message: `every upstream connection stayed busy for ${seconds(queueTimeoutMs)}; retry later`,
  };
}

/** 503: the request buffers are full. */
export const BUFFERS_FULL: UpstreamFailure = Object.freeze({
  status: 503, code: ProxyErrorCode.buffersFull, retryAfter: 1,
  message: 'the gateway is holding as many request bodies as it may; retry later',
});
