import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeOtlpLogsProtobuf } from '../../../../../plugins/llm/otlp/decode-logs-protobuf.js';
import { mapOtlpLogs } from '../../../../../plugins/llm/otlp/genai-log-events.js';
import { spanItemId } from '../../../../../plugins/llm/otlp/item-id.js';
import { logsProtobufOf, readableLog, type LogSpec } from './support/oracle-logs.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';
const OTHER_SPAN = 'c7ad6b7169203332';
const ev = (eventName: string, body: unknown, o: Partial<LogSpec> = {}) => readableLog({ traceId: TRACE, spanId: SPAN, eventName, body, attributes: { 'gen_ai.system': 'openai' }, ...o });
const map = (logs: unknown[]) => mapOtlpLogs(decodeOtlpLogsProtobuf(logsProtobufOf(logs)));

test('instrumentation-openai\'s events become the span\'s input (time order) and output (choice order), in the chat format', () => {
  const calls = [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }];
  const r = map([
    ev('gen_ai.choice', { index: 1, finish_reason: 'stop', message: { content: 'Second.' } }, { atMs: 1_700_000_000_900 }),
    ev('gen_ai.system.message', { content: 'Be brief.' }, { atMs: 1_700_000_000_100 }),
    ev('gen_ai.user.message', { content: 'Weather?' }, { atMs: 1_700_000_000_100 }),
    ev('gen_ai.assistant.message', { tool_calls: calls }, { atMs: 1_700_000_000_100 }),
    ev('gen_ai.tool.message', { id: 'call_1', content: 'sunny' }, { atMs: 1_700_000_000_100 }),
    ev('gen_ai.choice', { index: 0, finish_reason: 'tool_calls', message: { tool_calls: calls } }, { atMs: 1_700_000_000_800 }),
    readableLog({ traceId: TRACE, spanId: SPAN, body: 'GET /health 200' }),
    ev('gen_ai.client.inference.operation.details', {}),
  ]);
  assert.is(r.skipped, 2, 'a plain log and an event this mapping does not read');
  assert.equal(r.rejected, []);
  assert.is(r.spans.length, 1);
  const [s] = r.spans;
  assert.equal([s.id, s.trace_id, s.span_id], [spanItemId(TRACE, SPAN), TRACE, SPAN]);
  assert.equal(s.input, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: null, tool_calls: calls },
    { role: 'tool', content: 'sunny', tool_call_id: 'call_1' },
  ]);
  assert.equal(s.output, [
    { role: 'assistant', content: null, tool_calls: calls, finish_reason: 'tool_calls' },
    { role: 'assistant', content: 'Second.', finish_reason: 'stop' },
  ]);
});

test('events of several spans are kept apart; event.name as an attribute is read; content-less sides are left out', () => {
  const r = map([
    ev('gen_ai.user.message', { content: 'one' }),
    readableLog({ traceId: TRACE, spanId: OTHER_SPAN, attributes: { 'event.name': 'gen_ai.choice' }, body: { index: 0, finish_reason: 'stop', message: { content: 'two' } } }),
    // captureMessageContent off: bodies without content say nothing worth storing
    readableLog({ traceId: TRACE, spanId: 'd7ad6b7169203333', eventName: 'gen_ai.user.message', body: {} }),
  ]);
  assert.equal(r.spans.map((s) => [s.span_id, s.input, s.output]), [
    [SPAN, [{ role: 'user', content: 'one' }], undefined],
    [OTHER_SPAN, undefined, [{ role: 'assistant', content: 'two', finish_reason: 'stop' }]],
  ]);
});

test('a GenAI event without the ids of its span is rejected with the reason; other logs without ids are skipped', () => {
  const r = map([
    readableLog({ eventName: 'gen_ai.user.message', body: { content: 'orphan' } }),
    readableLog({ traceId: '0'.repeat(32), spanId: SPAN, eventName: 'gen_ai.choice', body: {} }),
    readableLog({ body: 'plain' }),
  ]);
  assert.equal([r.spans.length, r.rejected.length, r.skipped], [0, 2, 1]);
  assert.match(r.rejected[0].reason, /trace id/);
  assert.is(r.rejected[1].event, 'gen_ai.choice');
});

test.run();
