// Where a chart's points sit on its time axis. Each point is a bucket (its start time and a step); a bar centred on
// the bucket's start hung half outside the axis at the newest bucket, the one being filled, so a fresh
// installation's traffic showed as a sliver at the right edge. Points go in the middle of their bucket and the axis
// spans whole buckets, so every bar is drawn in full and the tick labels still read bucket starts.

/** Each point's position in seconds (uPlot's time unit): the middle of its bucket. */
export function bucketMiddles(times: readonly number[], stepMs: number): number[] {
  return times.map((t) => (t + stepMs / 2) / 1000);
}

/**
 * The x scale's range, in seconds, for points placed by `bucketMiddles`: from the first bucket's start to the last
 * bucket's end. uPlot passes the data's min and max, null when there is none (then its own range stands).
 */
export function bucketRange(min: number | null, max: number | null, stepMs: number): [number | null, number | null] {
  if (min === null || max === null) return [min, max];
  const half = stepMs / 2000;
  return [min - half, max + half];
}
