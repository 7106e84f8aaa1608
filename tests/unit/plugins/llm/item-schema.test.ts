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

test('depth: an item nesting past the limit is refused on its own', () => {
  let v: unknown = 1;
  for (let i = 0; i < 60; i++) v = [v];
  assert.match(error({ model: 'm', input: v })!.message, /nests deeper/);
  assert.ok(deeperThan([[1]], 1));
  assert.not.ok(deeperThan([[1]], 2));
  assert.not.ok(deeperThan('x', 0));
});

test.run();
