import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUCKET_COLUMNS, bucketIndex, LATENCY_BOUNDS_MS, quantileMs } from '../../../../gateway/records/latency-buckets.js';

/** Counts per bucket from observed durations, the way the rollups fold them. */
function countsOf(durations: number[]): number[] {
  const counts = LATENCY_BOUNDS_MS.map(() => 0);
  for (const d of durations) counts[bucketIndex(d)]++;
  return counts;
}

const boundsOf = (ms: number): [number, number] => {
  const i = bucketIndex(ms);
  return [i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1], LATENCY_BOUNDS_MS[i]];
};

test('one column per bound, named b0…b15, the last bound open-ended', () => {
  assert.is(BUCKET_COLUMNS.length, LATENCY_BOUNDS_MS.length);
  assert.is(BUCKET_COLUMNS[0], 'b0');
  assert.is(BUCKET_COLUMNS[15], 'b15');
  assert.is(LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1], Infinity);
  for (let i = 1; i < LATENCY_BOUNDS_MS.length; i++) assert.ok(LATENCY_BOUNDS_MS[i] > LATENCY_BOUNDS_MS[i - 1], `bounds ascend at ${i}`);
});

test('bucketIndex: upper bounds are inclusive', () => {
  assert.is(bucketIndex(0), 0);
  assert.is(bucketIndex(1), 0);
  assert.is(bucketIndex(1.0001), 1);
  assert.is(bucketIndex(2), 1);
  assert.is(bucketIndex(10), 3);
  assert.is(bucketIndex(10.5), 4);
  assert.is(bucketIndex(60_000), 14);
  assert.is(bucketIndex(60_001), 15);
  assert.is(bucketIndex(1e12), 15);
  assert.is(bucketIndex(Infinity), 15);
});

test('bucketIndex: NaN and negative durations land in the first bucket, never past the end', () => {
  assert.is(bucketIndex(NaN), 0);
  assert.is(bucketIndex(-5), 0);
});

test('quantileMs: null without data or for a q outside [0, 1]', () => {
  assert.is(quantileMs(countsOf([]), 0.95), null);
  assert.is(quantileMs(countsOf([5]), 1.5), null);
  assert.is(quantileMs(countsOf([5]), -0.1), null);
  assert.is(quantileMs(countsOf([5]), NaN), null);
});

test('quantileMs: interpolates inside the bucket that holds the rank', () => {
  // 90 at 15 ms (10, 20], 5 at 150 ms (100, 200], 4 at 700 ms (500, 1000], 1 at 3 s (2000, 5000].
  const counts = countsOf([...Array(90).fill(15), ...Array(5).fill(150), ...Array(4).fill(700), 3000]);
  // rank 95 is the last of the (100, 200] bucket: its upper bound.
  assert.is(quantileMs(counts, 0.95), 200);
  // rank 99 is the last of the (500, 1000] bucket.
  assert.is(quantileMs(counts, 0.99), 1000);
  // rank 50 is 50/90 of the way through (10, 20].
  assert.ok(Math.abs(quantileMs(counts, 0.5)! - (10 + (10 * 50) / 90)) < 1e-9);
  // rank 100 is in (2000, 5000].
  assert.is(quantileMs(counts, 1), 5000);
});

test('quantileMs: every estimate lies within the bounds of the bucket holding the true quantile', () => {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let round = 0; round < 50; round++) {
    const durations = Array.from({ length: 1 + Math.floor(rand() * 500) }, () => Math.exp(rand() * 11)); // 1 ms … 60 s
    const sorted = [...durations].sort((a, b) => a - b);
    const counts = countsOf(durations);
    for (const q of [0.5, 0.9, 0.95, 0.99]) {
      const truth = sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
      const [lower, upper] = boundsOf(truth);
      const estimate = quantileMs(counts, q)!;
      assert.ok(estimate >= lower && estimate <= upper,
        `q=${q} of ${sorted.length}: estimate ${estimate} outside (${lower}, ${upper}] holding ${truth}`);
    }
  }
});

test('quantileMs: a quantile in the open-ended bucket reports its lower bound, not an invented figure', () => {
  const counts = countsOf([5, 120_000, 90_000, 70_000]);
  assert.is(quantileMs(counts, 0.99), 60_000);
  assert.is(quantileMs(countsOf([1e9]), 0.5), 60_000);
});

test('quantileMs: q = 0 gives the lower bound of the first bucket with data', () => {
  assert.is(quantileMs(countsOf([150, 700]), 0), 100);
});

test.run();
