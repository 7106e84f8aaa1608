import { ReceiverRejectedError, ReceiverUnavailableError } from './errors.js';

/**
 * The error for a non-2xx answer: 408, 429 and 5xx are transient (retried, honouring Retry-After on 429 and 503);
 * any other 4xx and any 3xx are permanent, since sending the same batch to the same URL cannot succeed.
 */
export function httpFailure(what: string, status: number, retryAfter?: string | string[], detail?: string): Error {
  const suffix = detail ? `: ${detail}` : '';
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(retryAfter) : undefined;
    return new ReceiverUnavailableError(`${what} answered ${status}${suffix}`, { receiverStatus: status, retryAfterMs });
  }
  const hint = status >= 300 && status < 400 ? ' (redirects are not followed; configure the final URL)' : '';
  return new ReceiverRejectedError(`${what} answered ${status}${hint}${suffix}`, status);
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
