import { PermanentError, VigilError } from './errors.js';

/** The codes a plugin's receiver errors carry: its own catalogue's, so a user reads which plugin's receiver failed. */
export interface ReceiverErrorCodes {
  /** A refusal that retrying cannot fix (4xx other than 408/429, a redirect). */
  rejected: string;
  /** A failure worth retrying (unreachable, 5xx, 408, 429). */
  unavailable: string;
}

/** Permanent: a queue counts the delivery as failed and never retries it. */
export class ReceiverRejectedError extends PermanentError {
  /** The receiver's HTTP status, when it answered. */
  readonly receiverStatus?: number;
  constructor(code: string, message: string, receiverStatus?: number) {
    super(message, { code });
    this.name = 'ReceiverRejectedError';
    this.receiverStatus = receiverStatus;
  }
}

/** Retryable. `retryAfterMs` (from a Retry-After header or the body) is read by queues as a minimum delay. */
export class ReceiverUnavailableError extends VigilError {
  /** The receiver's HTTP status, when it answered. */
  readonly receiverStatus?: number;
  readonly retryAfterMs?: number;
  constructor(code: string, message: string, options: { receiverStatus?: number; retryAfterMs?: number; cause?: unknown } = {}) {
    super(code, message, { cause: options.cause });
    this.name = 'ReceiverUnavailableError';
    this.receiverStatus = options.receiverStatus;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * The error for a non-2xx answer: 408, 429 and 5xx are transient (retried, honouring Retry-After on 429 and 503,
 * or `retryAfterMs` when the caller read it elsewhere, a body, say); any other 4xx and any 3xx are permanent, since
 * sending the same request to the same URL cannot succeed. `what` names the receiver without its secrets.
 */
export function httpFailure(
  what: string,
  status: number,
  options: { codes: ReceiverErrorCodes; retryAfter?: string | string[]; retryAfterMs?: number; detail?: string },
): ReceiverRejectedError | ReceiverUnavailableError {
  const suffix = options.detail ? `: ${options.detail}` : '';
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterMs = options.retryAfterMs ?? (status === 429 || status === 503 ? parseRetryAfter(options.retryAfter) : undefined);
    return new ReceiverUnavailableError(options.codes.unavailable, `${what} answered ${status}${suffix}`, { receiverStatus: status, retryAfterMs });
  }
  const hint = status >= 300 && status < 400 ? ' (redirects are not followed; configure the final URL)' : '';
  return new ReceiverRejectedError(options.codes.rejected, `${what} answered ${status}${hint}${suffix}`, status);
}

/** Milliseconds from a Retry-After header: delay-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its weekday and month; without letters it is garbage (Date.parse('-5') is a year).
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
