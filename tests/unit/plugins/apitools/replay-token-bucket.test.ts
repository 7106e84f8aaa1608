import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRate, TokenBucket } from '../../../../plugins/apitools/replay/token-bucket.js';

test('rates: per second, minute, hour, or a bare number per second', () => {
  assert.equal(['20/s', '600/m', '3600/h', '5', '0.5/s', '0', 'x', '5/d', '-1'].map(parseRate), [20, 10, 1, 5, 0.5, undefined, undefined, undefined, undefined]);
});

test('takes are spaced evenly at the rate, in the order they were asked, by concurrent takers too', async () => {
  const bucket = new TokenBucket(50); // one every 20 ms
  const times: number[] = [];
  const order: number[] = [];
  const start = performance.now();
  await Promise.all(Array.from({ length: 6 }, async (_, i) => { await bucket.take(); order.push(i); times.push(performance.now() - start); }));
  assert.equal(order, [0, 1, 2, 3, 4, 5]);
  assert.ok(times[0] < 200, `first at ${times[0]}`);
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  assert.ok(gaps.every((g) => g >= 15), `gaps ${gaps.join(',')}`);
  assert.ok(times[5] >= 95, `last at ${times[5]}`);
});

test('a burst allows that many takes at once, then the rate', async () => {
  const bucket = new TokenBucket(20, 3);
  const start = performance.now();
  for (let i = 0; i < 3; i++) await bucket.take();
  assert.ok(performance.now() - start < 20);
  await bucket.take();
  assert.ok(performance.now() - start >= 40);
});

test.run();
