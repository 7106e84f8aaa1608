import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KEY_TTL_MS, KeyCache, MAX_KEYS, UNKNOWN_KEY_TTL_MS } from '../../../../plugins/llm/key-cache.js';
import { hashKey } from '../../../../plugins/llm/project-keys.js';

function setup(known: Record<string, string>) {
  let now = 0;
  const asked: string[] = [];
  const cache = new KeyCache<string>(async (h) => { asked.push(h); return known[h] ?? null; }, () => now);
  return { cache, asked, advance: (ms: number) => { now += ms; } };
}

test('lookups go by SHA-256; a found key is trusted 60 s, then asked again (a revoked key stops within the minute)', async () => {
  const known: Record<string, string> = { [hashKey('k1')]: 'alpha' };
  const { cache, asked, advance } = setup(known);
  assert.is(await cache.lookup('k1'), 'alpha');
  assert.equal(asked, [hashKey('k1')]);
  advance(KEY_TTL_MS - 1);
  delete known[hashKey('k1')];
  assert.is(await cache.lookup('k1'), 'alpha');
  advance(1);
  assert.is(await cache.lookup('k1'), null);
  assert.is(asked.length, 2);
});

test('unknown keys are remembered 5 s; concurrent lookups share one query; a failed query is not cached', async () => {
  const { cache, asked, advance } = setup({});
  await Promise.all([cache.lookup('x'), cache.lookup('x'), cache.lookup('x')]);
  assert.is(asked.length, 1);
  advance(UNKNOWN_KEY_TTL_MS);
  await cache.lookup('x');
  assert.is(asked.length, 2);
  let fail = true;
  const flaky = new KeyCache<string>(async () => { if (fail) throw new Error('down'); return 'ok'; });
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
