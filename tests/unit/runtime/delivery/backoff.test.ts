import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { backoffDelay, retryAfterOf } from '../../../../runtime/delivery/backoff.js';

test('the delay doubles per attempt between half and all of its step', () => {
  assert.is(backoffDelay(1, 100, 10_000, () => 0), 50);
  assert.is(backoffDelay(1, 100, 10_000, () => 1), 100);
  assert.is(backoffDelay(2, 100, 10_000, () => 0), 100);
  assert.is(backoffDelay(3, 100, 10_000, () => 1), 400);
  assert.is(backoffDelay(4, 100, 10_000, () => 0.5), 600);
});

test('the delay is capped, even for a very large attempt number', () => {
  assert.is(backoffDelay(10, 100, 1_000, () => 1), 1_000);
  assert.is(backoffDelay(5_000, 100, 1_000, () => 1), 1_000);
  assert.is(backoffDelay(5_000, 100, 1_000, () => 0), 500);
});

test('jitter spreads delays of the same attempt', () => {
  const seen = new Set(Array.from({ length: 50 }, () => backoffDelay(3, 100, 10_000)));
  assert.ok(seen.size > 1);
  for (const d of seen) assert.ok(d >= 200 && d <= 400, String(d));
});

test('retryAfterOf reads a positive finite retryAfterMs and ignores anything else', () => {
  assert.is(retryAfterOf(Object.assign(new Error('429'), { retryAfterMs: 1500 })), 1500);
  assert.is(retryAfterOf(new Error('x')), undefined);
  assert.is(retryAfterOf({ retryAfterMs: -1 }), undefined);
  assert.is(retryAfterOf({ retryAfterMs: '5' }), undefined);
  assert.is(retryAfterOf({ retryAfterMs: Infinity }), undefined);
  assert.is(retryAfterOf(null), undefined);
  assert.is(retryAfterOf(undefined), undefined);
});

test.run();
