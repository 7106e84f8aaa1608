import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyLangfuseBatch } from '../../../../../plugins/llm/langfuse/apply-batch.js';
import { parseIngestionBatch } from '../../../../../plugins/llm/langfuse/ingestion-event.js';
import { MemoryStateStore, observationKey, traceKey } from '../../../../../plugins/llm/langfuse/state-store.js';
import { langfuseCredentials, langfuseHealthBody } from '../../../../../plugins/llm/langfuse/basic-auth.js';
import { observationItemId } from '../../../../../plugins/llm/langfuse/observation-item.js';

const TRACE = '45955e9d-e8e2-4a49-9256-ce243197b4a1';
const GEN = 'ddbd4526-9507-40cb-befd-60401db444a9';
const T = '2026-11-26T00:08:28.297Z';

// The order the langfuse@3.39.2 SDK really sent (captured against a stub): scores and the update before the create,
// the trace in the middle, trace.update() as a second trace-create.
const sdkBatch = () => ({ batch: [
  { id: 'e1', type: 'event-create', timestamp: T, body: { id: 'ev1', startTime: '2026-11-26T00:08:28.294Z', name: 'clicked', traceId: TRACE, parentObservationId: null } },
  { id: 'e2', type: 'score-create', timestamp: T, body: { id: '25ad7df5-0db8-4451-b94d-c1fd8b4943b9', name: 'helpful', value: 1, comment: 'ok', traceId: TRACE, observationId: null } },
  { id: 'e3', type: 'score-create', timestamp: T, body: { id: 'sc-2', traceId: TRACE, observationId: GEN, name: 'tone', value: 'friendly', dataType: 'CATEGORICAL' } },
  { id: 'e4', type: 'span-create', timestamp: T, body: { id: 'sp1', startTime: '2026-11-26T00:08:28.294Z', name: 'retrieval', input: 'q', traceId: TRACE } },
  { id: 'e5', type: 'generation-update', timestamp: T, body: {
    output: { role: 'assistant', content: 'hello' }, usage: { input: 10, output: 3 }, usageDetails: { input: 10, output: 3, cache_read_input_tokens: 2 },
    costDetails: { input: 0.001, output: 0.002 }, id: GEN, traceId: TRACE, endTime: '2026-11-26T00:08:28.494Z',
  } },
  { id: 'e6', type: 'trace-create', timestamp: T, body: { id: TRACE, timestamp: '2026-11-26T00:08:28.294Z', name: 'support-chat', userId: 'u-1', sessionId: 's-1', tags: ['prod'], metadata: { plan: 'pro' }, input: { question: 'hi' } } },
  { id: 'e7', type: 'trace-create', timestamp: T, body: { id: TRACE, timestamp: '2026-11-26T00:08:28.294Z', output: { answer: 'hello' } } },
  { id: 'e8', type: 'generation-create', timestamp: T, body: {
    id: GEN, startTime: '2026-11-26T00:08:28.294Z', name: 'answer', model: 'gpt-4o-mini', modelParameters: { temperature: 0.1 },
    input: [{ role: 'user', content: 'hi' }], traceId: TRACE, parentObservationId: null, metadata: { plan: 'enterprise', step: 2 },
    promptName: 'greeting', promptVersion: 3, completionStartTime: '2026-11-26T00:08:28.394Z',
  } },
  { id: 'e9', type: 'sdk-log', timestamp: T, body: { log: 'hello' } },
] });

test('the SDK\'s out-of-order batch: one complete generation with its trace\'s fields, two scores, context counted', async () => {
  const store = new MemoryStateStore();
  const { events, errors } = parseIngestionBatch(sdkBatch());
  assert.equal(errors, []);
  const r = await applyLangfuseBatch(store, events);
  assert.equal(r.applied.sort(), ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9']);
  assert.is(r.items.length, 1);
  const item = r.items[0];
  assert.is(item.id, GEN, 'a UUID from the SDK is kept as the item id');
  assert.is(item.model, 'gpt-4o-mini');
  assert.is(item.name, 'answer');
  assert.is(item.status, 'ok');
  assert.is(item.start_time, '2026-11-26T00:08:28.294Z');
  assert.is(item.latency_ms, 200);
  assert.equal(item.tokens, { input: 10, output: 3, cache_read: 2 });
  assert.ok(Math.abs(item.cost_usd! - 0.003) < 1e-12);
  assert.equal(item.input, [{ role: 'user', content: 'hi' }]);
  assert.equal(item.output, { role: 'assistant', content: 'hello' });
  assert.equal(item.prompt_template, { name: 'greeting', raw: 'prompt "greeting" version 3 (text kept by the sender\'s prompt registry)' });
  assert.is(item.user_id, 'u-1');
  assert.is(item.session_id, 's-1');
  assert.equal(item.tags, ['prod']);
  assert.is(item.metadata!.plan, 'enterprise', 'the observation\'s metadata wins over its trace\'s');
  assert.is(item.metadata!.step, 2);
  const lf = item.metadata!.langfuse as Record<string, unknown>;
  assert.is(lf.trace_id, TRACE);
  assert.is(lf.trace_name, 'support-chat');
  assert.equal(lf.model_parameters, { temperature: 0.1 });
  assert.is(lf.time_to_first_token_ms, 100);
  assert.equal(r.scores.map((s) => [s.name, s.value, s.data_type, s.item_id ?? null]), [
    ['helpful', 1, 'NUMERIC', null], ['tone', 'friendly', 'CATEGORICAL', observationItemId(GEN)],
  ]);
  assert.is(r.scores[0].id, '25ad7df5-0db8-4451-b94d-c1fd8b4943b9');
  assert.match(r.scores[1].id, /^[0-9a-f-]{36}$/);
  assert.is(r.context, 3, 'the event, the span and the sdk-log');
  const trace = store.entities.get(traceKey(TRACE))!;
  assert.equal(trace.body.output, { answer: 'hello' }, 'trace.update() merged into the trace');
  assert.is(trace.body.name, 'support-chat');
  assert.is(store.entities.get(observationKey(GEN))!.emitted, true);
});

test('the same batch retried: nothing handed on twice, its events counted late', async () => {
  const store = new MemoryStateStore();
  await applyLangfuseBatch(store, parseIngestionBatch(sdkBatch()).events);
  const again = await applyLangfuseBatch(store, parseIngestionBatch(sdkBatch()).events);
  assert.is(again.items.length, 0);
  assert.is(again.late, 2);
  assert.is(again.scores.length, 2, 'scores come again with the same ids: the eval store de-duplicates by id');
});

test('a generation split over two batches, update first: handed on when the create arrives, with the trace stored earlier', async () => {
  const store = new MemoryStateStore();
  const batch = sdkBatch().batch;
  const first = await applyLangfuseBatch(store, parseIngestionBatch({ batch: batch.filter((e) => ['e5', 'e6'].includes(e.id)) }).events);
  assert.is(first.items.length, 0);
  const second = await applyLangfuseBatch(store, parseIngestionBatch({ batch: batch.filter((e) => e.id === 'e8') }).events);
  assert.is(second.items.length, 1);
  assert.is(second.items[0].user_id, 'u-1');
  assert.equal(second.items[0].tokens, { input: 10, output: 3, cache_read: 2 });
});

test('a non-UUID observation id gets a derived UUID; errors and missing fields are carried', async () => {
  const store = new MemoryStateStore();
  const r = await applyLangfuseBatch(store, parseIngestionBatch({ batch: [
    { id: 'x1', type: 'generation-create', timestamp: T, body: { id: 'my-gen-1', model: 'claude-3-haiku', startTime: T, endTime: T, level: 'ERROR', statusMessage: 'overloaded' } },
    { id: 'x2', type: 'generation-create', timestamp: T, body: { id: 'my-gen-2', endTime: T, usage: { promptTokens: 4, completionTokens: 1, totalTokens: 5 } } },
    { id: 'x3', type: 'generation-create', timestamp: T, body: { id: 'my-gen-3', model: 'tts-1', endTime: T, usage: { input: 120, unit: 'CHARACTERS' } } },
  ] }).events);
  const [a, b, c] = r.items;
  assert.match(a.id!, /^[0-9a-f]{8}-[0-9a-f]{4}-5/);
  assert.is(a.id, observationItemId('my-gen-1'));
  assert.is(a.status, 'error');
  assert.is(a.error, 'overloaded');
  assert.is(a.metadata!.usage_missing, true);
  assert.is(b.model, 'unknown');
  assert.is(b.metadata!.model_missing, true);
  assert.equal(b.tokens, { input: 4, output: 1, total: 5 });
  assert.is(c.tokens, undefined, 'characters are not tokens');
  assert.equal((c.metadata!.langfuse as any).usage, { input: 120, unit: 'CHARACTERS' });
});

test('Basic publicKey:secretKey → the secret is the project key; anything else is no credential', () => {
  const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
  assert.equal(langfuseCredentials(basic('pk-lf-1:vk_project_secret')), { publicKey: 'pk-lf-1', projectKey: 'vk_project_secret' });
  assert.equal(langfuseCredentials(basic(':vk:with:colons')), { publicKey: '', projectKey: 'vk:with:colons' });
  for (const bad of [undefined, '', 'Bearer pk-lf-1', basic('pk-only'), basic('pk-lf-1:'), 'Basic !!!']) assert.is(langfuseCredentials(bad), undefined);
  assert.equal(langfuseHealthBody('0.1.0'), { status: 'OK', version: '0.1.0' });
});

test.run();
