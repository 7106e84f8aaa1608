// clients/node/src/retry-delay.ts: backoff with jitter, and Retry-After as seconds or a date.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { backoffMs, parseRetryAfter } from '../../../clients/node/src/retry-delay.js';

test('attempt n waits between half and all of min(max, base·2ⁿ)', () => {
  assert.is(backoffMs(0, 100, 10_000, () => 0), 50);
  assert.is(backoffMs(0, 100, 10_000, () => 1), 100);
  assert.is(backoffMs(3, 100, 10_000, () => 0), 400);
  assert.is(backoffMs(3, 100, 10_000, () => 1), 800);
  assert.is(backoffMs(20, 100, 10_000, () => 1), 10_000);
  assert.is(backoffMs(5000, 100, 10_000, () => 0.5), 7500, 'no overflow for absurd attempts');
});

test('jitter spreads clients that failed together', () => {
  const delays = new Set(Array.from({ length: 50 }, () => backoffMs(2, 100, 10_000)));
  assert.ok(delays.size > 40);
  for (const d of delays) assert.ok(d >= 200 && d <= 400, String(d));
});

test('Retry-After: delta-seconds (fractions too), an HTTP-date, or nothing', () => {
  const now = Date.UTC(2026, 10, 25, 12, 0, 0);
  assert.is(parseRetryAfter('3', now), 3000);
  assert.is(parseRetryAfter(' 0.25 ', now), 250);
  assert.is(parseRetryAfter('Wed, 25 Nov 2026 12:00:05 GMT', now), 5000);
  assert.is(parseRetryAfter('Wed, 25 Nov 2026 11:00:00 GMT', now), 0, 'a date in the past means now');
  assert.is(parseRetryAfter(['2', '9'], now), 2000);
  assert.is(parseRetryAfter(undefined, now), undefined);
  assert.is(parseRetryAfter('soon', now), undefined);
  assert.is(parseRetryAfter('-3', now), undefined);
});

test.run();
