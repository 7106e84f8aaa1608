// clients/node/src/normalise-item.ts: a lenient trace in, the strict wire item out.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normaliseItem } from '../../../clients/node/src/normalise-item.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('no model, no item: the server would refuse it', () => {
  assert.is(normaliseItem({ model: '' }), undefined);
  assert.is(normaliseItem({ model: 42 } as any), undefined);
  assert.is(normaliseItem(null as any), undefined);
});

test('every item gets a client UUID unless it brings one', () => {
  assert.match(normaliseItem({ model: 'm' })!.id!, UUID);
  assert.is(normaliseItem({ model: 'm', id: 'given' })!.id, 'given');
});

test('unknown keys are left out; numbers must be finite and not negative', () => {
  const item = normaliseItem({ model: 'm', extra: 1, latency_ms: -1, cost_usd: NaN, tokens: { input: 3.4, output: -2, bogus: 1 } } as any)!;
  assert.equal(Object.keys(item).sort(), ['id', 'model', 'tokens']);
  assert.equal(item.tokens, { input: 3 });
});

test('start_time from a Date or epoch milliseconds; an Error as error text with status error', () => {
  const at = Date.UTC(2026, 10, 25, 12, 0, 0);
  assert.is(normaliseItem({ model: 'm', start_time: new Date(at) })!.start_time, '2026-11-25T12:00:00.000Z');
  assert.is(normaliseItem({ model: 'm', start_time: at })!.start_time, '2026-11-25T12:00:00.000Z');
  const failed = normaliseItem({ model: 'm', error: new RangeError('too far') })!;
  assert.is(failed.status, 'error');
  assert.is(failed.error, 'RangeError: too far');
  assert.is(normaliseItem({ model: 'm', status: 'ok', error: 'ignored?' })!.status, 'ok', 'an explicit status wins');
  assert.match(normaliseItem({ model: 'm', error: 'e'.repeat(20_000) })!.error!, /…\[truncated 11808 chars\]$/);
});

test('the enclosing scope fills in; the trace\'s own fields win, tags add up, metadata merges', () => {
  const scope = { name: 'scoped', user_id: 'u1', tags: ['a'], metadata: { env: 'prod', k: 1 }, prompt_template: { name: 't', raw: 'T' } };
  const item = normaliseItem({ model: 'm', user_id: 'u2', tags: ['b', 'a'], metadata: { k: 2 } }, scope)!;
  assert.is(item.name, 'scoped');
  assert.is(item.user_id, 'u2');
  assert.equal(item.tags, ['a', 'b']);
  assert.equal(item.metadata, { env: 'prod', k: 2 });
  assert.equal(item.prompt_template, { name: 't', raw: 'T' });
});

test('metadata that is not an object is wrapped; a template without name or raw is left out', () => {
  assert.equal(normaliseItem({ model: 'm', metadata: 'note' as any })!.metadata, { value: 'note' });
  assert.is(normaliseItem({ model: 'm', prompt_template: { name: 't' } as any })!.prompt_template, undefined);
});

test('input and output are copied at the call: a later change by the app does not reach the trace', () => {
  const messages = [{ role: 'user', content: 'hi' }];
  const item = normaliseItem({ model: 'm', input: messages })!;
  messages.push({ role: 'assistant', content: 'hello' });
  assert.is((item.input as unknown[]).length, 1);
});

test.run();
