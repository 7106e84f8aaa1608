import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reduceEvent, type LangfuseEntity } from '../../../../../plugins/llm/langfuse/entity-reducer.js';
import type { LangfuseEvent } from '../../../../../plugins/llm/langfuse/ingestion-event.js';

const ev = (type: LangfuseEvent['type'], timestamp: string, body: Record<string, unknown>, id = `${type}@${timestamp}`): LangfuseEvent => ({ id, type, timestamp, body });
const fold = (events: LangfuseEvent[]) => {
  let state: LangfuseEntity | undefined;
  const readies: number[] = [];
  const lates: number[] = [];
  events.forEach((e, i) => {
    const r = reduceEvent(state, e);
    state = r.entity;
    if (r.ready) readies.push(i);
    if (r.late) lates.push(i);
  });
  return { state: state!, readies, lates };
};

const T0 = '2024-05-01T10:00:00.000Z';
const T1 = '2024-05-01T10:00:01.000Z';
const create = ev('generation-create', T0, { id: 'g', traceId: 't', name: 'answer', model: 'gpt-4o', input: 'q', startTime: T0 });
const update = ev('generation-update', T0, { id: 'g', output: 'a', usage: { input: 3, output: 1 }, endTime: T1 });

test('create then update, or update then create (same millisecond, as the SDK sends them): the same merge, ready once', () => {
  const inOrder = fold([create, update]);
  const reversed = fold([update, create]);
  for (const r of [inOrder, reversed]) {
    assert.equal(r.state.body, { id: 'g', traceId: 't', name: 'answer', model: 'gpt-4o', input: 'q', startTime: T0, output: 'a', usage: { input: 3, output: 1 }, endTime: T1 });
    assert.is(r.state.type, 'generation');
    assert.is(r.state.emitted, true);
    assert.is(r.state.created, true);
    assert.is(r.readies.length, 1);
  }
  assert.equal(inOrder.readies, [1]);
  assert.equal(reversed.readies, [1], 'an update with usage and an end is not ready before its create names the model');
});

test('a newer event overwrites what it sets; an older one only fills gaps; null never erases', () => {
  const a = ev('span-update', T1, { id: 's', output: 'new', name: null });
  const b = ev('span-create', T0, { id: 's', output: 'old', name: 'retrieval', input: 'q' });
  const { state } = fold([a, b]);
  assert.equal(state.body, { id: 's', output: 'new', name: 'retrieval', input: 'q' });
  assert.is(state.stamp, `${T1}|1`);
  assert.is(state.type, 'span');
});

test('applying the same events again changes nothing and is not ready twice', () => {
  const once = fold([create, update]);
  const twice = fold([create, update, create, update]);
  assert.equal(twice.state, once.state);
  assert.equal(twice.readies, [1]);
  assert.equal(twice.lates, [2, 3], 'events after the hand-off are late');
});

test('ready needs an end and a model or usage, on a generation or embedding only', () => {
  assert.equal(fold([create]).readies, [], 'not ended');
  assert.equal(fold([ev('generation-create', T0, { id: 'g', endTime: T1 })]).readies, [], 'no model, no usage');
  assert.equal(fold([ev('generation-create', T0, { id: 'g', endTime: T1, usageDetails: { input: 5 } })]).readies, [0], 'usage without a model');
  assert.equal(fold([ev('span-create', T0, { id: 's', model: 'gpt-4o', endTime: T1 })]).readies, [], 'a span is not an LLM call');
  assert.equal(fold([ev('observation-create', T0, { id: 'o', type: 'EMBEDDING', model: 'text-embedding-3-small', endTime: T1 })]).readies, [0]);
  assert.is(fold([ev('observation-create', T0, { id: 'o', type: 'AGENT' })]).state.type, 'agent');
});

test('a create without body.id takes the envelope id; trace-create merges like an observation', () => {
  const r = reduceEvent(undefined, ev('trace-create', T0, { name: 'chat' }, 'env-1'));
  assert.is(r.entity.id, 'env-1');
  assert.is(r.entity.kind, 'trace');
  const later = reduceEvent(r.entity, ev('trace-create', T0, { id: 'env-1', output: { ok: true } }, 'env-2'));
  assert.equal(later.entity.body, { name: 'chat', id: 'env-1', output: { ok: true } });
  assert.equal(fold([update]).readies, [], 'an update alone never completes a call');
  assert.is(later.ready, false);
});

test('a __proto__ key in a body is ignored, not made the prototype', () => {
  const body = JSON.parse('{"id":"s","__proto__":{"polluted":true},"name":"x"}');
  const r = reduceEvent(undefined, ev('span-create', T0, body));
  assert.is((r.entity.body as any).polluted, undefined);
  assert.is(Object.getPrototypeOf(r.entity.body), Object.prototype);
  assert.is(r.entity.body.name, 'x');
});

test('scores and logs are not merged', () => {
  assert.throws(() => reduceEvent(undefined, ev('score-create', T0, { name: 'x', value: 1 })), TypeError);
});

test.run();
