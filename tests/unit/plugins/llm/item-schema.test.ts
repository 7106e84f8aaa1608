import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkItem, deeperThan } from '../../../../plugins/llm/item-schema.js';

const error = (item: unknown) => {
  const r = checkItem(item, 7);
  return r.ok ? null : r.error;
};

test('a full item passes; model alone is enough', () => {
  assert.ok(checkItem({ model: 'm' }, 0).ok);
  assert.ok(checkItem({
    model: 'gpt-4o', id: '01890a5d-ac96-774b-bcce-b302099a8057', name: 'n', provider: 'openai', status: 'error', error: 'e',
    start_time: '2025-01-02T03:04:05.678Z', latency_ms: 1.5, tokens: { input: 1, output: 2, cache_read: 0, total: 3 }, cost_usd: 0.1,
    input: [{ any: ['json'] }], output: null, prompt_template: { name: 't', raw: 'r', variables: { a: 1 } },
    user_id: 'u', session_id: 's', tags: ['a'], metadata: { k: { v: 1 } },
  }, 0).ok);
});

test('each problem names the index, a stable code, the key path and what is wrong', () => {
  assert.equal(error({}), { index: 7, code: 'VIGIL_ERR_LLM_ITEM_INVALID', message: 'model is required', path: 'model' });
  assert.equal(error({ model: 'm', extra: 1 })?.path, 'extra');
  assert.equal(error({ model: 'm', tokens: { input: -1 } })?.path, 'tokens.input');
  assert.equal(error({ model: 'm', tokens: { input: 1.5 } })?.path, 'tokens.input');
  assert.equal(error({ model: 'm', tags: ['ok', 3] })?.path, 'tags[1]');
  assert.equal(error({ model: 'm', status: 'fine' })?.message, 'status must be equal to one of the allowed values: "ok", "error"');
  assert.equal(error({ model: 'm', id: 'not-a-uuid' })?.path, 'id');
  assert.equal(error({ model: 'm', start_time: 'yesterday' })?.path, 'start_time');
  assert.equal(error({ model: 'm', prompt_template: { name: 't' } })?.path, 'prompt_template.raw');
  assert.equal(error({ model: 'm', metadata: [] })?.path, 'metadata');
  assert.equal(error('a string')?.path, '');
  assert.equal(error(null)?.path, '');
});

test('values past any real call are refused with their path: cost, latency and each token count, at the bound and just past it', () => {
  assert.ok(checkItem({ model: 'm', cost_usd: 1e6, latency_ms: 86_400_000, tokens: { input: 1e9, output: 1e9, cache_read: 1e9, total: 1e9 } }, 0).ok);
  for (const [item, path] of [
    [{ cost_usd: 1e308 }, 'cost_usd'],
    [{ cost_usd: 1_000_000.01 }, 'cost_usd'],
    [{ latency_ms: 86_400_001 }, 'latency_ms'],
    [{ latency_ms: 1e300 }, 'latency_ms'],
    [{ tokens: { input: 1e9 + 1 } }, 'tokens.input'],
    [{ tokens: { output: 1e300 } }, 'tokens.output'],
    [{ tokens: { cache_read: 2 ** 53 } }, 'tokens.cache_read'],
    [{ tokens: { total: 9e15 } }, 'tokens.total'],
  ] as const) {
    const e = error({ model: 'm', ...item });
    assert.equal([e?.code, e?.path], ['VIGIL_ERR_LLM_ITEM_INVALID', path], JSON.stringify(item));
    assert.match(e!.message, /must be <=/);
  }
});

test('start_time: up to 5 minutes ahead of the server\'s clock and from 2000 on; later or earlier is refused, saying why', () => {
  const now = Date.UTC(2026, 5, 1, 12);
  const at = (ms: number) => new Date(ms).toISOString();
  const check = (start_time: string) => checkItem({ model: 'm', start_time }, 3, now);
  assert.ok(check(at(now + 5 * 60_000)).ok);
  assert.ok(check(at(now - 365 * 86_400_000)).ok);
  assert.ok(check('2000-01-01T00:00:00Z').ok);
  assert.ok(check('2026-06-01T14:04:00+02:00').ok, 'an offset is read as the same instant');
  for (const [start, why] of [
    [at(now + 5 * 60_000 + 1000), /ahead of the server's clock/],
    ['9999-12-31T23:59:59Z', /ahead of the server's clock/],
    ['2026-06-01T12:06:00-00:01', /ahead of the server's clock/],
    ['1999-12-31T23:59:59Z', /before 2000-01-01/],
    [at(1_700_000_000), /before 2000-01-01/],
  ] as const) {
    const r = check(start);
    assert.not.ok(r.ok, start);
    if (!r.ok) {
      assert.equal([r.error.index, r.error.code, r.error.path], [3, 'VIGIL_ERR_LLM_ITEM_INVALID', 'start_time']);
      assert.match(r.error.message, why);
    }
  }
  // Without a clock given, it is the real one.
  assert.not.ok(checkItem({ model: 'm', start_time: at(Date.now() + 3_600_000) }, 0).ok);
  assert.ok(checkItem({ model: 'm', start_time: at(Date.now()) }, 0).ok);
});

test('depth: an item nesting past the limit is refused on its own', () => {
  let v: unknown = 1;
  for (let i = 0; i < 60; i++) v = [v];
  assert.match(error({ model: 'm', input: v })!.message, /nests deeper/);
  assert.ok(deeperThan([[1]], 1));
  assert.not.ok(deeperThan([[1]], 2));
  assert.not.ok(deeperThan('x', 0));
});

test.run();
