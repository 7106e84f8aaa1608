/** How long to wait before the next attempt of a batch: the server's Retry-After when it gave one, else backoff. */

/**
 * Exponential backoff with jitter: attempt 0 waits between base/2 and base, attempt n between cap/2 and cap where
 * cap = min(max, base·2ⁿ). Half fixed, half random ("equal jitter"): clients that failed together spread out, and
 * none retries at once.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const cap = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return cap / 2 + random() * (cap / 2);
}

/**
 * A Retry-After header in milliseconds: delta-seconds (fractions are accepted, so tests can ask for 0.2 s) or an
 * HTTP-date, counted from `now`. Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // HTTP-dates start with the day's name; anything else Date.parse might read ('-3' as year -3) is not one.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
