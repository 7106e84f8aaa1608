import { defineErrorCodes, statusOf, VigilError, type ErrorCodeOf, type HttpErrorCode } from '@vigil/plugin-sdk';
import type { SlowBody } from './body-pace.js';

/**
 * Codes of the traffic lane. The request ones reach clients as `{ "error": { "code", "message" } }`, with the status
 * of their entry, and stand in the record's `error`; LISTEN stops the plugin at start-up.
 */
export const ProxyErrors = defineErrorCodes('PROXY', {
  UPSTREAM_UNREACHABLE: {
    status: 502,
    meaning: 'The upstream refused or dropped the connection, or its name could not be resolved.',
    action: 'Check that service.upstream is right and the API is up; the gateway log names the address and the cause.',
  },
  UPSTREAM_TIMEOUT: {
    status: 504,
    meaning: 'The upstream did not answer within service.timeout, or could not be connected to within service.connect_timeout.',
    action: 'Look at the upstream\'s own latency; raise service.timeout only if such slow answers are expected.',
  },
  UPSTREAM_BAD_RESPONSE: {
    status: 502,
    meaning: 'The upstream answered something that is not a valid HTTP response (a parse error, a body longer or shorter than its Content-Length).',
    action: 'Fix the upstream\'s response; the log line carries the parser\'s code.',
  },
  BAD_REQUEST: {
    status: 400,
    meaning: 'The request cannot be forwarded as received (an asterisk-form target, a duplicate Host, a header the upstream client refuses).',
    action: 'Send an origin-form request-target and well-formed headers.',
  },
  INTERNAL: {
    status: 502,
    meaning: 'Something else went wrong inside the gateway while proxying.',
    action: 'A bug: report it with the log line (counted in vigil_plugin_errors_total{plugin="proxy"}).',
  },
  CLIENT_TIMEOUT: {
    status: 408,
    meaning: 'The client sent its request body too slowly (nothing, or less than service.client_min_rate, over a service.client_body_timeout window, or not its buffered part within service.request_buffer_timeout), or read the response too slowly over a service.send_timeout window. The connection is closed after the answer; once the response started, it is cut instead.',
    action: 'A client on a slow link: raise client_min_rate\'s window (client_body_timeout, send_timeout) or lower client_min_rate; a client holding connections on purpose is what these bounds stop.',
  },
  QUEUE_TIMEOUT: {
    status: 503,
    meaning: 'Every upstream connection (service.max_connections) stayed busy for service.queue_timeout, so the request was never sent. Retry-After says when to retry.',
    action: 'The upstream is saturated or slow: raise max_connections if it can take more, or look at its latency.',
  },
  BUFFERS_FULL: {
    status: 503,
    meaning: 'The request buffers already hold service.request_buffer_memory bytes, so a new request body could not be buffered. Retry-After says when to retry.',
    action: 'Many slow or large uploads at once: raise request_buffer_memory if memory allows, or lower request_buffer.',
  },
  LISTEN: {
    meaning: 'The proxy cannot listen on service.listen (the port is taken, or the address is not this machine\'s).',
    action: 'Choose a free port or stop what uses it.',
  },
});

export type ProxyErrorCode = ErrorCodeOf<typeof ProxyErrors>;

export class ProxyError extends VigilError {
  constructor(code: ProxyErrorCode, message: string, options?: { status?: number; cause?: unknown }) {
    super(code, message, options);
    this.name = 'ProxyError';
  }
}

/** What the client gets when the exchange fails before the upstream answered. */
export interface UpstreamFailure {
  /** The status of the code's entry. */
  status: number;
  code: ProxyErrorCode;
  message: string;
  /** Seconds, for a `Retry-After` field (the failure is the gateway's load, not the request's fault). */
  retryAfter?: number;
}

/** The failure `code` stands for, answered with the status its entry gives it. */
export function upstreamFailure(code: ProxyErrorCode & HttpErrorCode, message: string): UpstreamFailure {
  return { status: statusOf(code) ?? 502, code, message };
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
    return upstreamFailure(ProxyErrors.UPSTREAM_TIMEOUT, `timed out waiting to ${what} (${code})`);
  }
  if (unreachable.has(code)) {
    return upstreamFailure(ProxyErrors.UPSTREAM_UNREACHABLE, `the upstream could not be reached (${code})`);
  }
  if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED') {
    return upstreamFailure(ProxyErrors.BAD_REQUEST, `the request cannot be forwarded: ${(err as Error).message}`);
  }
  if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' ||
    code === 'UND_ERR_HEADERS_OVERFLOW') {
    return upstreamFailure(ProxyErrors.UPSTREAM_BAD_RESPONSE, `the upstream sent an invalid response (${code})`);
  }
  return upstreamFailure(ProxyErrors.INTERNAL, `the request could not be proxied${code ? ` (${code})` : ''}`);
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
  return upstreamFailure(ProxyErrors.CLIENT_TIMEOUT, message);
}

/** 408 (or a cut, once the response started): the client read the response too slowly. */
export function slowReaderFailure(why: SlowBody, bounds: ClientBodyBounds): UpstreamFailure {
  const message = why === 'idle'
    ? `the client read nothing of the response for ${seconds(bounds.sendTimeoutMs)}`
    : `the client read the response at less than ${bounds.clientMinRate} bytes per second over ${seconds(bounds.sendTimeoutMs)}`;
  return upstreamFailure(ProxyErrors.CLIENT_TIMEOUT, message);
}

/** 503: no upstream connection came free in time. */
export function queueTimeoutFailure(queueTimeoutMs: number): UpstreamFailure {
  return { ...upstreamFailure(ProxyErrors.QUEUE_TIMEOUT, `every upstream connection stayed busy for ${seconds(queueTimeoutMs)}; retry later`), retryAfter: 1 };
}

/** 503: the request buffers are full. */
export function buffersFullFailure(): UpstreamFailure {
  return { ...upstreamFailure(ProxyErrors.BUFFERS_FULL, 'the gateway is holding as many request bodies as it may; retry later'), retryAfter: 1 };
}
