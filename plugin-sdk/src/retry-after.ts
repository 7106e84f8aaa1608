/** The longest wait a provider's Retry-After may impose on one eval: past it, the eval waits this long. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * Milliseconds a provider asked to wait: OpenAI's `retry-after-ms`, else `Retry-After` as seconds or an HTTP date;
 * undefined when it said nothing usable. Capped at MAX_RETRY_AFTER_MS.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? NaN);
  let wait: number | undefined = Number.isFinite(ms) && ms >= 0 ? ms : undefined;
  if (wait === undefined) {
    const value = headers.get('retry-after')?.trim();
    if (value) {
      if (/^\d+(\.\d+)?$/.test(value)) wait = Number(value) * 1000;
      else {
        const at = Date.parse(value);
        if (!Number.isNaN(at)) wait = Math.max(0, at - now);
      }
    }
  }
  return wait === undefined ? undefined : Math.min(wait, MAX_RETRY_AFTER_MS);
}
