import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KEY_TTL_MS, KeyCache, MAX_KEYS, UNKNOWN_KEY_TTL_MS } from '../../../../plugins/llm/key-cache.js';
import { hashKey } from '../../../../plugins/llm/project-keys.js';

/** A store of keys by hash, each with the end of its grace period (null: active), answering as the store does. */
function setup(known: Record<string, string>, ends: Record<string, number | null> = {}) {
  let now = 0;
  const asked: string[] = [];
  const cache = new KeyCache<string>(async (h) => {
    asked.push(h);
    const end = ends[h] ?? null;
    return known[h] === undefined || (end !== null && end <= now) ? null : { value: known[h], expires_at: end };
  }, () => now);
  return { cache, asked, advance: (ms: number) => { now += ms; }, at: () => now };
}

test('lookups go by SHA-256; a found key is trusted 1 s, then asked again (a key revoked elsewhere stops within the second)', async () => {
  const known: Record<string, string> = { [hashKey('k1')]: 'alpha' };
  const { cache, asked, advance } = setup(known);
  assert.is(KEY_TTL_MS, 1000);
  assert.is(await cache.lookup('k1'), 'alpha');
  assert.equal(asked, [hashKey('k1')]);
  advance(KEY_TTL_MS - 1);
  delete known[hashKey('k1')];
  assert.is(await cache.lookup('k1'), 'alpha');
  advance(1);
  assert.is(await cache.lookup('k1'), null);
  assert.is(asked.length, 2);
});

test('a key in its grace period is trusted until its expires_at, to the millisecond, never past it', async () => {
  const h = hashKey('old');
  const { cache, asked, advance } = setup({ [h]: 'alpha' }, { [h]: 400 });
  assert.is(await cache.lookup('old'), 'alpha');
  advance(399);
  assert.is(await cache.lookup('old'), 'alpha');
  assert.is(asked.length, 1, 'cached until then');
  advance(1);
  assert.is(await cache.lookup('old'), null, 'refused at its expires_at, not at the end of the cache TTL');
});

test('a grace another process gave a cached key is learned within the TTL, and then honoured exactly', async () => {
  const h = hashKey('k');
  const ends: Record<string, number | null> = {};
  const { cache, advance, at } = setup({ [h]: 'alpha' }, ends);
  assert.is(await cache.lookup('k'), 'alpha');
  advance(100);
  ends[h] = at() + 2000;
  advance(KEY_TTL_MS);
  assert.is(await cache.lookup('k'), 'alpha', 'read again: in its grace');
  advance(2000 - KEY_TTL_MS - 1);
  assert.is(await cache.lookup('k'), 'alpha');
  advance(1);
  assert.is(await cache.lookup('k'), null);
});

test('unknown keys are remembered 5 s; concurrent lookups share one query; a failed query is not cached', async () => {
  const { cache, asked, advance } = setup({});
  await Promise.all([cache.lookup('x'), cache.lookup('x'), cache.lookup('x')]);
  assert.is(asked.length, 1);
  advance(UNKNOWN_KEY_TTL_MS);
  await cache.lookup('x');
  assert.is(asked.length, 2);
  let fail = true;
  const flaky = new KeyCache<string>(async () => { if (fail) throw new Error('down'); return { value: 'ok', expires_at: null }; });
  await flaky.lookup('y').catch(() => {});
  await new Promise((r) => setImmediate(r));
  fail = false;
  assert.is(await flaky.lookup('y'), 'ok');
});

test('random keys cannot grow the cache past its bound', async () => {
  const { cache } = setup({});
  for (let i = 0; i < MAX_KEYS + 500; i++) await cache.lookup(`k${i}`);
  assert.ok((cache as unknown as { entries: Map<string, unknown> }).entries.size <= MAX_KEYS);
});

test.run();
