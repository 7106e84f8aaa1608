import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pushWindow, sparklineArea, sparklinePath } from '../../../../../ui/src/areas/host/sparkline-path.js';

test('a line across the width, scaled to the largest value', () => {
  assert.is(sparklinePath([0, 50, 100], 100, 20), 'M0 20L50 10L100 0');
});

test('a fixed top keeps small values low (a CPU share against 100)', () => {
  assert.is(sparklinePath([0, 10], 100, 20, 100), 'M0 20L100 18');
});

test('a null lifts the pen; fewer values than slots fill from the right', () => {
  assert.is(sparklinePath([10, null, 10], 100, 10, 10), 'M0 0M100 0');
  assert.is(sparklinePath([5, 10], 100, 10, 10, 3), 'M50 5L100 0');
});

test('nothing to draw is an empty path, and all zeros lie on the baseline', () => {
  assert.is(sparklinePath([], 100, 10), '');
  assert.is(sparklinePath([null, null], 100, 10), '');
  assert.is(sparklinePath([0, 0], 100, 10), 'M0 10L100 10');
});

test('the area closes the last run down to the baseline', () => {
  assert.is(sparklineArea('M0 20L50 10L100 0', 20), 'M0 20L50 10L100 0L100 20L0 20Z');
  assert.is(sparklineArea('', 20), '');
});

test('pushWindow keeps the newest values and leaves the old window alone', () => {
  const a = [1, 2, 3];
  assert.equal(pushWindow(a, 4, 3), [2, 3, 4]);
  assert.equal(a, [1, 2, 3]);
  assert.equal(pushWindow([1], 2, 3), [1, 2]);
});

test.run();
