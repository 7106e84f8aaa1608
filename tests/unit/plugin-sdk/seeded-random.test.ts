import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { seededRandom, seedOf, retryAfterMs, MAX_RETRY_AFTER_MS } from '@vigil/plugin-sdk';

test('seededRandom repeats per seed, differs across seeds, stays in [0, 1)', () => {
  const draw = (seed: number) => { const r = seededRandom(seed); return Array.from({ length: 1000 }, r); };
  assert.equal(draw(7), draw(7));
  assert.not.equal(draw(7), draw(8));
  assert.ok(draw(1).every((x) => x >= 0 && x < 1));
  const mean = draw(3).reduce((a, b) => a + b, 0) / 1000;
  assert.ok(mean > 0.45 && mean < 0.55, String(mean));
});

test('seedOf: a stable 32-bit seed per text', () => {
  assert.is(seedOf('GET /users'), seedOf('GET /users'));
  assert.is.not(seedOf('GET /users'), seedOf('GET /user'));
  assert.is(seedOf(''), 0x811c9dc5);
  assert.ok(Number.isInteger(seedOf('x')) && seedOf('x') >= 0 && seedOf('x') < 2 ** 32);
});

test('retryAfterMs: retry-after-ms, seconds, an HTTP date, capped; nothing usable is undefined', () => {
  assert.is(retryAfterMs(new Headers({ 'retry-after-ms': '250' })), 250);
  assert.is(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000);
  assert.is(retryAfterMs(new Headers({ 'retry-after': new Date(61_000).toUTCString() }), 1_000), 60_000);
  assert.is(retryAfterMs(new Headers({ 'retry-after': '99999' })), MAX_RETRY_AFTER_MS);
  assert.is(retryAfterMs(new Headers({ 'retry-after': 'soon' })), undefined);
  assert.is(retryAfterMs(new Headers()), undefined);
});

test.run();
