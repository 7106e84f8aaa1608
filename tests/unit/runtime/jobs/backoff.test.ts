import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { backoffDelay } from '../../../../runtime/jobs/backoff.js';

test('the step doubles per attempt; jitter picks a point in its upper half', () => {
  assert.equal([1, 2, 3, 4].map((a) => backoffDelay(a, 1000, 1e9, () => 1)), [1000, 2000, 4000, 8000]);
  assert.equal([1, 2, 3, 4].map((a) => backoffDelay(a, 1000, 1e9, () => 0)), [500, 1000, 2000, 4000]);
  assert.is(backoffDelay(3, 1000, 1e9, () => 0.5), 3000);
});

test('the step is capped at maxMs', () => {
  assert.is(backoffDelay(30, 1000, 60_000, () => 1), 60_000);
  assert.is(backoffDelay(30, 1000, 60_000, () => 0), 30_000);
});

test('attempt 0 or below behaves like the first', () => {
  assert.is(backoffDelay(0, 100, 1e9, () => 1), 100);
});

test.run();
