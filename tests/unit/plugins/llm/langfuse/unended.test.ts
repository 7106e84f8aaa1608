// Revisions of merged Langfuse entities, and generations never ended taken from the state once idle (pure modules).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isUnended, reduceEvent, type LangfuseEntity } from '../../../../../plugins/llm/langfuse/entity-reducer.js';
import type { LangfuseEvent } from '../../../../../plugins/llm/langfuse/ingestion-event.js';
import { MemoryStateStore, observationKey, traceKey } from '../../../../../plugins/llm/langfuse/state-store.js';
import { takeUnended } from '../../../../../plugins/llm/langfuse/unended.js';

const ev = (type: LangfuseEvent['type'], timestamp: string, body: Record<string, unknown>, id = `${type}@${timestamp}`): LangfuseEvent => ({ id, type, timestamp, body });
const T0 = '2024-05-01T10:00:00.000Z';
const T1 = '2024-05-01T10:00:01.000Z';
const T2 = '2024-05-01T10:00:02.000Z';

test('the revision counts changes only: a repeated event, or an older one with nothing to fill, leaves it', () => {
  let e: LangfuseEntity | undefined;
  const step = (event: LangfuseEvent) => { const r = reduceEvent(e, event); e = r.entity; return [r.changed, e.revision]; };
  const create = ev('generation-create', T0, { id: 'g', model: 'gpt-4o', output: { text: 'draft' } });
  const end = ev('generation-update', T2, { id: 'g', endTime: T2, output: { text: 'final' } });
  assert.equal(step(create), [true, 1]);
  assert.equal(step(end), [true, 2]);
  assert.equal(step(end), [false, 2], 'the same event again');
  assert.equal(step(create), [false, 2], 'an older event whose fields are set');
  assert.equal(step(ev('generation-update', T1, { id: 'g', output: { text: 'older' }, level: 'ERROR' })), [true, 3], 'older, but fills the level');
  assert.equal(e!.body.output, { text: 'final' });
  assert.is(e!.body.level, 'ERROR');
});

test('a generation created and not handed on is unended; ended, emitted, or a span, it is not', () => {
  const created = reduceEvent(undefined, ev('generation-create', T0, { id: 'g', model: 'm' })).entity;
  assert.ok(isUnended(created));
  assert.not.ok(isUnended(reduceEvent(created, ev('generation-update', T1, { id: 'g', endTime: T1 })).entity), 'complete: emitted');
  assert.not.ok(isUnended(reduceEvent(undefined, ev('generation-update', T0, { id: 'u', output: 'x' })).entity), 'no create yet');
  assert.not.ok(isUnended(reduceEvent(undefined, ev('span-create', T0, { id: 's' })).entity));
});

test('takeUnended: only idle ones, oldest first, within the limit; each taken once, incomplete when never ended', async () => {
  let clock = 1_000;
  const state = new MemoryStateStore(() => clock);
  await state.put(traceKey('t'), reduceEvent(undefined, ev('trace-create', T0, { id: 't', userId: 'u-1', name: 'chat' })).entity);
  const put = async (id: string, body: Record<string, unknown>) => {
    await state.put(observationKey(id), reduceEvent(undefined, ev('generation-create', T0, { id, traceId: 't', ...body })).entity);
    clock += 100;
  };
  await put('a', { model: 'm', output: 'partial' });
  await put('b', { endTime: T1 }); // ended, but no model or usage: never complete for the reducer
  await put('c', { model: 'm' });
  const first = await takeUnended(state, 1_050, 10); // a was touched at 1,000, b at 1,100, c at 1,200
  assert.equal(first.items.map((i) => (i.metadata?.langfuse as { observation_id: string }).observation_id), ['a']);
  assert.equal([...first.incomplete], [0]);
  assert.is(first.items[0].user_id, 'u-1', 'the trace\'s fields come along');
  assert.equal(first.items[0].output, 'partial');
  const rest = await takeUnended(state, 10_000, 1);
  assert.equal(rest.items.map((i) => (i.metadata?.langfuse as { observation_id: string }).observation_id), ['b'], 'oldest first, one');
  assert.equal([...rest.incomplete], [], 'b ended: stored complete');
  assert.equal(rest.sources.map((s) => s.key), [observationKey('b')]);
  const last = await takeUnended(state, 10_000, 10);
  assert.equal(last.items.map((i) => (i.metadata?.langfuse as { observation_id: string }).observation_id), ['c']);
  assert.equal((await takeUnended(state, 10_000, 10)).items, [], 'each taken once');
  assert.ok((await state.get(observationKey('a')))!.emitted);
});

test('takeUnended holds at most maxChars of state at once (and always one)', async () => {
  const state = new MemoryStateStore(() => 0);
  for (const id of ['x', 'y', 'z']) await state.put(observationKey(id), reduceEvent(undefined, ev('generation-create', T0, { id, model: 'm', output: 'o'.repeat(1_000) })).entity);
  assert.is((await takeUnended(state, 1, 10, 2_500)).items.length, 2);
  assert.is((await takeUnended(state, 1, 10, 10)).items.length, 1, 'one past the bound is still taken');
  assert.is((await takeUnended(state, 1, 10, 10)).items.length, 0);
});

test.run();
