/**
 * Fixed latency buckets (upper bounds in ms, inclusive) stored as columns b0…b15 of each rollup row, so rows can be
 * summed in SQL on both backends and percentiles estimated from any range.
 */
export const LATENCY_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000, Infinity];
export const BUCKET_COLUMNS = LATENCY_BOUNDS_MS.map((_, i) => `b${i}`);
const LAST_FINITE_MS = LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 2];

/** The bucket that holds `ms`: the first whose upper bound is ≥ ms. NaN and negative values go to the first. */
export function bucketIndex(ms: number): number {
  let i = 0;
  while (ms > LATENCY_BOUNDS_MS[i]) i++;
  return i;
}

/**
 * The q-quantile (0..1) in ms, interpolated linearly inside the bucket that holds it, the way Prometheus'
 * `histogram_quantile` does: the estimate always lies within that bucket's bounds. A quantile that falls in the
 * open-ended last bucket is reported as its lower bound (60 s), since nothing is known above it. Null without data.
 */
export function quantileMs(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0 || !(q >= 0 && q <= 1)) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    if (counts[i] === 0) continue;
    if (seen + counts[i] >= rank) {
      if (!Number.isFinite(LATENCY_BOUNDS_MS[i])) return LAST_FINITE_MS;
      const lower = i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1];
      const upper = LATENCY_BOUNDS_MS[i];
      return lower + ((upper - lower) * (rank - seen)) / counts[i];
    }
    seen += counts[i];
  }
  return LAST_FINITE_MS;
}
