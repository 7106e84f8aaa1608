/**
 * Delay before retry number `attempt` (1 = the first retry): exponential from `baseMs`, capped at `capMs`, with
 * "equal jitter" (half the step fixed, half random) so that queues failing together spread out but never retry at
 * once in a tight loop.
 */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const step = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return step / 2 + (random() * step) / 2;
}

/**
 * A minimum delay a `send` asked for by attaching `retryAfterMs` to its error (e.g. from an HTTP Retry-After
 * header), or undefined.
 */
export function retryAfterOf(err: unknown): number | undefined {
  const value = (err as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
