import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bucketMiddles, bucketRange } from '../../../../ui/src/components/bucket-axis.js';

const MIN = 60_000;

test('each point sits in the middle of its bucket, in seconds', () => {
  assert.equal(bucketMiddles([0, 15 * MIN, 30 * MIN], 15 * MIN), [450, 1350, 2250]);
});

test('the axis spans whole buckets: the newest bucket is drawn in full, not cut in half at the edge', () => {
  const xs = bucketMiddles([0, 15 * MIN, 30 * MIN], 15 * MIN);
  const range = bucketRange(xs[0], xs[2], 15 * MIN);
  assert.equal(range, [0, 2700]);
  // The newest bar, centred on its bucket's middle, ends at the range's end.
  assert.is(xs[2] + 450, range[1]);
});

test('one bucket alone spans its whole step; no data leaves the range to uPlot', () => {
  const [x] = bucketMiddles([60 * MIN], MIN);
  assert.equal(bucketRange(x, x, MIN), [3600, 3660]);
  assert.equal(bucketRange(null, null, MIN), [null, null]);
});

test.run();
