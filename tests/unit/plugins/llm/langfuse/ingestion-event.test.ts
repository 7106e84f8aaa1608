import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LangfuseBatchError, parseIngestionBatch } from '../../../../../plugins/llm/langfuse/ingestion-event.js';
import { ingestionResponse, INGESTION_STATUS } from '../../../../../plugins/llm/langfuse/ingestion-response.js';

const T = '2024-05-01T10:00:00.000Z';
const ev = (id: string, type: string, body: unknown, extra: object = {}) => ({ id, type, timestamp: T, body, ...extra });

test('a body that is not { batch: [...] } is refused as a whole', () => {
  for (const bad of [null, [], 'x', {}, { batch: {} }, { batch: 'no' }]) assert.throws(() => parseIngestionBatch(bad), (err: unknown) => err instanceof LangfuseBatchError);
  assert.equal(parseIngestionBatch({ batch: [] }), { events: [], errors: [] });
});

test('each event is validated on its own: the good ones pass, each bad one is an error naming its id and the problem', () => {
  const { events, errors } = parseIngestionBatch({ batch: [
    ev('e1', 'trace-create', { id: 't1', name: 'chat', userId: 'u', tags: ['a'], metadata: 'any json is fine' }),
    ev('e2', 'generation-create', { id: 'g1', traceId: 't1', model: 'gpt-4o', usage: { input: 1 }, startTime: T, input: [1, 2] }),
    ev('e3', 'generation-update', { traceId: 't1' }),
    ev('e4', 'generation-create', { id: 'g2', model: 42 }),
    ev('e5', 'span-create', { id: 's1', startTime: 'yesterday' }),
    ev('e6', 'score-create', { id: 'sc1', traceId: 't1', name: 'helpful' }),
    ev('e7', 'score-create', { id: 'sc2', traceId: 't1', name: 'tone', value: 'warm', dataType: 'CATEGORICAL' }),
    ev('e8', 'trace-delete', { id: 't1' }),
    ev('e9', 'trace-create', 'not an object'),
    { type: 'trace-create', body: {} },
    42,
    ev('e12', 'generation-create', { id: 'g3', level: 'LOUD' }),
    ev('e13', 'observation-create', { id: 'o1', type: 'GENERATION', model: 'm' }),
    ev('e14', 'observation-create', { id: 'o2', type: 'WIDGET' }),
    ev('e15', 'sdk-log', { log: { anything: true } }),
    ev('e16', 'trace-create', { id: 't2', tags: [1] }),
    { id: 'e17', type: 'event-create', body: { id: 'x' } },
  ] });
  assert.equal(events.map((e) => e.id), ['e1', 'e2', 'e7', 'e13', 'e15', 'e17']);
  assert.is(events[5].timestamp.length > 0, true, 'a missing timestamp is the parse time');
  const byId = Object.fromEntries(errors.map((e) => [e.id, e]));
  assert.match(byId.e3.message, 'body.id is required on an update');
  assert.match(byId.e4.message, 'body.model must be a string');
  assert.match(byId.e5.message, 'body.startTime must be an ISO 8601 date-time');
  assert.match(byId.e6.message, 'body.value must be a number, a string or a boolean');
  assert.match(byId.e8.message, 'unknown event type "trace-delete"');
  assert.match(byId.e9.message, 'body must be an object');
  assert.match(byId['batch[9]'].message, 'the event id is required');
  assert.match(byId['batch[10]'].message, 'an event must be an object');
  assert.match(byId.e12.message, 'body.level must be DEBUG, DEFAULT, WARNING or ERROR');
  assert.match(byId.e14.message, 'is not an observation type');
  assert.match(byId.e16.message, 'body.tags must be a list of strings');
  assert.ok(errors.every((e) => e.status === 400 && e.error === 'invalid_event'));
});

test('times and amounts past any real call are refused per event, naming the field: the state never sees them', () => {
  const NOW = '2026-06-01T12:00:00.000Z';
  const soon = '2026-06-01T12:04:59.000Z';
  const late = '2026-06-01T12:05:01.000Z';
  const { events, errors } = parseIngestionBatch({ batch: [
    ev('ok', 'generation-create', { id: 'g1', model: 'm', startTime: soon, endTime: soon, completionStartTime: soon,
      usage: { input: 1e9, output: '1000000000', totalCost: 1e6 }, usageDetails: { input: 1e9, cache_read_input_tokens: 1e9 }, costDetails: { input: 5e5, output: 5e5 } }, { timestamp: soon }),
    ev('envelope', 'trace-create', { id: 't1' }, { timestamp: '9999-12-31T23:59:59.000Z' }),
    ev('start', 'generation-create', { id: 'g2', model: 'm', startTime: late }),
    ev('end', 'generation-update', { id: 'g2', endTime: '9999-01-01T00:00:00Z' }),
    ev('first-token', 'generation-update', { id: 'g2', completionStartTime: late }),
    ev('score', 'score-create', { id: 's1', name: 'n', value: 1, timestamp: late }),
    ev('old', 'span-create', { id: 'sp', startTime: '1970-01-20T16:13:20.000Z' }),
    ev('tokens', 'generation-create', { id: 'g3', model: 'm', usage: { input: 1e12 } }),
    ev('details', 'generation-create', { id: 'g4', model: 'm', usageDetails: { output_tokens: '1e300' } }),
    ev('cost', 'generation-create', { id: 'g5', model: 'm', costDetails: { total: 1e308 } }),
    ev('cost-sum', 'generation-create', { id: 'g6', model: 'm', costDetails: { input: 6e5, output: 6e5 } }),
    ev('legacy-cost', 'generation-update', { id: 'g7', usage: { inputCost: 1e300 } }),
  ] }, () => NOW);
  assert.equal(events.map((e) => e.id), ['ok']);
  const byId = Object.fromEntries(errors.map((e) => [e.id, e.message]));
  assert.match(byId.envelope, /^timestamp 9999-12-31T23:59:59\.000Z is more than 5 minutes ahead of the server's clock/);
  assert.match(byId.start, /^body\.startTime 2026-06-01T12:05:01\.000Z is more than 5 minutes ahead/);
  assert.match(byId.end, /^body\.endTime .* ahead/);
  assert.match(byId['first-token'], /^body\.completionStartTime .* ahead/);
  assert.match(byId.score, /^body\.timestamp .* ahead/);
  assert.match(byId.old, /^body\.startTime 1970-01-20T16:13:20\.000Z is before 2000-01-01/);
  assert.match(byId.tokens, /^body\.usage: 1000000000000 input tokens, more than the 1000000000 of any call/);
  assert.match(byId.details, /^body\.usageDetails: 1e\+300 output tokens/);
  assert.match(byId.cost, /^body\.costDetails: a cost of 1e\+308 USD, more than the 1000000 USD of any call/);
  assert.match(byId['cost-sum'], /^body\.costDetails: a cost of 1200000 USD/);
  assert.match(byId['legacy-cost'], /^body\.usage: a cost of 1e\+300 USD/);
  assert.ok(errors.every((e) => e.status === 400 && e.error === 'invalid_event'));
});

test('the 207 answer lists successes and errors by event id', () => {
  assert.is(INGESTION_STATUS, 207);
  assert.equal(ingestionResponse(['a', 'b'], [{ id: 'c', status: 400, message: 'bad', error: 'invalid_event' }]), {
    successes: [{ id: 'a', status: 201 }, { id: 'b', status: 201 }],
    errors: [{ id: 'c', status: 400, message: 'bad', error: 'invalid_event' }],
  });
});

test.run();
