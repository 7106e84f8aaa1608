/**
 * Delay before the next attempt after `attempt` (1-based) failed: base × 2^(attempt-1), capped at `maxMs`, with
 * "equal jitter" (a random point in the upper half), so retries of many jobs that failed together spread out while
 * each still waits at least half its step.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}
