import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeOtlpProtobuf } from '../../../../../plugins/llm/otlp/decode-protobuf.js';
import { mapOtlpRequest, partialSuccessOf } from '../../../../../plugins/llm/otlp/map-request.js';
import { spanItemId } from '../../../../../plugins/llm/otlp/item-id.js';
import { emptyAttributes, type OtlpTraceRequest } from '../../../../../plugins/llm/otlp/otlp-model.js';
import { protobufOf, readableSpan, type SpanSpec } from './support/oracle-spans.js';

/** Spans through the real protobuf serialiser and Vigil's decoder, then the mapping. */
const mapSpans = (...specs: SpanSpec[]) => mapOtlpRequest(decodeOtlpProtobuf(protobufOf(specs.map(readableSpan))));
const only = (spec: SpanSpec) => {
  const r = mapSpans(spec);
  assert.is(r.items.length, 1, `one item expected, got ${r.items.length} (skipped ${r.skipped}, rejected ${r.rejected.length})`);
  return r.items[0];
};

test('current semconv (Traceloop 0.27): provider, response model first, tokens, parts-format messages, parameters', () => {
  const item = only({
    traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', startMs: 1_700_000_000_000, durationMs: 1234.5678,
    attributes: {
      'gen_ai.provider.name': 'openai', 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18', 'gen_ai.request.temperature': 0.2, 'gen_ai.request.max_tokens': 50,
      'gen_ai.usage.input_tokens': 21, 'gen_ai.usage.output_tokens': 7, 'gen_ai.usage.total_tokens': 28,
      'gen_ai.usage.cache_read.input_tokens': 5, 'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
      'gen_ai.input.messages': JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: 'Weather in ' }, { type: 'text', content: 'Paris?' }] },
        { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'weather', arguments: { city: 'Paris' } }] },
        { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: { temp: 21 } }] },
        { role: 'user', parts: [{ type: 'text', content: 'And?' }, { type: 'uri', modality: 'image', uri: 'https://x/y.png' }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', finish_reason: 'stop', parts: [{ type: 'reasoning', content: 'hmm' }, { type: 'text', content: 'Sunny.' }] }]),
    },
  });
  assert.is(item.id, spanItemId('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331'));
  assert.match(item.id!, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.is(item.model, 'gpt-4o-mini-2024-07-18');
  assert.is(item.provider, 'openai');
  assert.is(item.status, 'ok');
  assert.is(item.start_time, '2023-11-14T22:13:20.000Z');
  assert.is(item.latency_ms, 1234.568);
  assert.equal(item.tokens, { input: 21, output: 7, cache_read: 5, total: 28 });
  assert.equal(item.input, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', content: '{"temp":21}', tool_call_id: 'c1' },
    { role: 'user', content: [{ type: 'text', text: 'And?' }, { type: 'uri', modality: 'image', uri: 'https://x/y.png' }] },
  ]);
  assert.equal(item.output, [{ role: 'assistant', content: 'Sunny.', finish_reason: 'stop', reasoning: 'hmm' }]);
  const otel = item.metadata!.otel as Record<string, unknown>;
  assert.is(otel.trace_id, '0af7651916cd43dd8448eb211c80319c');
  assert.is(otel.span_id, 'b7ad6b7169203331');
  assert.is(otel.request_model, 'gpt-4o-mini');
  assert.equal(otel.parameters, { temperature: 0.2, max_tokens: 50 });
  assert.equal(otel.finish_reasons, ['tool_calls']);
  assert.is(otel.service, 'checkout');
  assert.is(item.metadata!.usage_missing, undefined);
});

test('legacy flattened names (Traceloop ≤ 0.22): gen_ai.system, prompt/completion N, prompt/completion tokens, tool calls', () => {
  const item = only({
    attributes: {
      'gen_ai.system': 'OpenAI', 'llm.request.type': 'chat', 'gen_ai.request.model': 'gpt-3.5-turbo',
      'gen_ai.prompt.0.role': 'system', 'gen_ai.prompt.0.content': 'Be brief.',
      'gen_ai.prompt.1.role': 'user', 'gen_ai.prompt.1.content': JSON.stringify([{ type: 'text', text: 'Hi ' }, { type: 'text', text: 'there' }]),
      'gen_ai.prompt.10.role': 'user', 'gen_ai.prompt.10.content': 'tenth',
      'gen_ai.completion.0.role': 'assistant', 'gen_ai.completion.0.finish_reason': 'tool_calls',
      'gen_ai.completion.0.tool_calls.0.id': 'call_9', 'gen_ai.completion.0.tool_calls.0.name': 'lookup', 'gen_ai.completion.0.tool_calls.0.arguments': '{"q":1}',
      'gen_ai.usage.prompt_tokens': 11, 'gen_ai.usage.completion_tokens': '4', 'llm.usage.total_tokens': 15,
    },
  });
  assert.is(item.provider, 'openai');
  assert.is(item.model, 'gpt-3.5-turbo');
  assert.equal(item.tokens, { input: 11, output: 4, total: 15 }, 'a count sent as a string still counts');
  assert.equal(item.input, [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi there' }, { role: 'user', content: 'tenth' }], 'numeric order, 10 after 1');
  assert.equal(item.output, [{ role: 'assistant', content: null, finish_reason: 'tool_calls', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'lookup', arguments: '{"q":1}' } }] }]);
  assert.is((item.metadata!.otel as any).operation, 'chat');
});

test('OpenInference: llm.* names, multimodal contents, tool calls, prompt template with variables, cache read', () => {
  const item = only({
    attributes: {
      'openinference.span.kind': 'LLM', 'llm.system': 'openai', 'llm.provider': 'azure', 'llm.model_name': 'gpt-4o',
      'llm.input_messages.0.message.role': 'user',
      'llm.input_messages.0.message.contents.0.message_content.type': 'text', 'llm.input_messages.0.message.contents.0.message_content.text': 'What is this?',
      'llm.input_messages.0.message.contents.1.message_content.type': 'image', 'llm.input_messages.0.message.contents.1.message_content.image.image.url': 'https://x/cat.png',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.tool_calls.0.tool_call.id': 't1',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'classify',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"label":"cat"}',
      'llm.finish_reason': 'tool_calls',
      'llm.token_count.prompt': 100, 'llm.token_count.completion': 9, 'llm.token_count.total': 109, 'llm.token_count.prompt_details.cache_read': 64,
      'llm.prompt_template.template': 'Describe {{thing}}.', 'llm.prompt_template.version': 'v3', 'llm.prompt_template.variables': '{"thing":"the image"}',
      'llm.invocation_parameters': '{"model":"gpt-4o","temperature":0}', 'user.id': 'u1', 'session.id': 's1', 'tag.tags': ['beta', 'vision'],
      'metadata': '{"team":"search"}',
    },
  });
  assert.is(item.provider, 'azure', 'llm.provider (who served it) before llm.system');
  assert.is(item.model, 'gpt-4o');
  assert.equal(item.tokens, { input: 100, output: 9, cache_read: 64, total: 109 });
  assert.equal(item.input, [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://x/cat.png' } }] }]);
  assert.equal(item.output, [{ role: 'assistant', content: null, finish_reason: 'tool_calls', tool_calls: [{ id: 't1', type: 'function', function: { name: 'classify', arguments: '{"label":"cat"}' } }] }]);
  assert.equal(item.prompt_template, { name: 'chat gpt-4o-mini', raw: 'Describe {{thing}}.', variables: { thing: 'the image' } });
  assert.is(item.user_id, 'u1');
  assert.is(item.session_id, 's1');
  assert.equal(item.tags, ['beta', 'vision']);
  assert.is(item.metadata!.team, 'search');
  assert.equal((item.metadata!.otel as any).parameters, { temperature: 0 });
});

test('Vercel AI SDK: the inner doGenerate span is the call, the outer ai.generateText is context; messages and metadata', () => {
  const r = mapSpans(
    { traceId: '11111111111111111111111111111111', spanId: '2222222222222222', name: 'ai.generateText', attributes: {
      'ai.operationId': 'ai.generateText', 'ai.model.provider': 'openai.chat', 'ai.model.id': 'gpt-4o-mini',
      'ai.usage.inputTokens': 21, 'ai.usage.outputTokens': 7, 'ai.prompt': '{"prompt":"hi"}',
    } },
    { traceId: '11111111111111111111111111111111', spanId: '3333333333333333', parentSpanId: '2222222222222222', name: 'ai.generateText.doGenerate', attributes: {
      'ai.operationId': 'ai.generateText.doGenerate', 'ai.model.provider': 'openai.chat', 'ai.model.id': 'gpt-4o-mini',
      'ai.telemetry.functionId': 'quiz', 'ai.telemetry.metadata.userId': 'user-7', 'ai.telemetry.metadata.sessionId': 'sess-9', 'ai.telemetry.metadata.plan': 'pro',
      'ai.prompt.messages': JSON.stringify([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: { type: 'json', value: { t: 21 } } }] },
      ]),
      'ai.response.text': 'Sunny.', 'ai.response.finishReason': 'stop', 'ai.response.msToFirstChunk': 15.5,
      'ai.usage.inputTokens': 21, 'ai.usage.outputTokens': 7, 'ai.usage.totalTokens': 28, 'ai.usage.cachedInputTokens': 3,
      'ai.settings.temperature': 0.3,
    } },
  );
  assert.is(r.items.length, 1);
  assert.is(r.skipped, 1);
  const item = r.items[0];
  assert.is(item.name, 'ai.generateText.doGenerate');
  assert.is(item.provider, 'openai', '"openai.chat" is the API, not the provider');
  assert.is(item.model, 'gpt-4o-mini');
  assert.equal(item.tokens, { input: 21, output: 7, cache_read: 3, total: 28 });
  assert.equal(item.input, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', content: '{"type":"json","value":{"t":21}}', tool_call_id: 'c1' },
  ]);
  assert.equal(item.output, [{ role: 'assistant', content: 'Sunny.', finish_reason: 'stop' }]);
  assert.is(item.user_id, 'user-7');
  assert.is(item.session_id, 'sess-9');
  assert.is(item.metadata!.plan, 'pro');
  assert.is((item.metadata!.otel as any).time_to_first_token_ms, 15.5);
  assert.is((item.metadata!.otel as any).trace_name, 'ai.generateText', 'the root span, in the same request, names the trace');
});

test('Langfuse OTel attributes: generation type, model name, input/output as given, usage and cost details, level, prompt', () => {
  const r = mapSpans(
    { traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', spanId: '1111111111111111', name: 'handle-request', scope: { name: 'langfuse-sdk', version: '5.11.1' }, attributes: {
      'langfuse.observation.type': 'span', 'langfuse.trace.name': 'support-bot', 'user.id': 'u-42', 'session.id': 'chat-1',
      'langfuse.trace.tags': ['prod', 'eu'], 'langfuse.trace.metadata.region': 'eu-west', 'langfuse.environment': 'production',
    } },
    { traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', spanId: '2222222222222222', parentSpanId: '1111111111111111', name: 'llm-call', scope: { name: 'langfuse-sdk', version: '5.11.1' }, startMs: 1_700_000_000_000, attributes: {
      'langfuse.observation.type': 'generation', 'langfuse.observation.model.name': 'claude-3-5-sonnet',
      'langfuse.observation.input': JSON.stringify([{ role: 'user', content: 'Hello' }]), 'langfuse.observation.output': JSON.stringify({ role: 'assistant', content: 'Hi!' }),
      'langfuse.observation.usage_details': JSON.stringify({ input: 12, output: 3, cache_read_input_tokens: 2 }),
      'langfuse.observation.cost_details': JSON.stringify({ input: 0.0001, output: 0.0002 }),
      'langfuse.observation.model.parameters': JSON.stringify({ temperature: 0.7 }),
      'langfuse.observation.metadata': JSON.stringify({ feature: 'greet' }), 'langfuse.observation.level': 'ERROR',
      'langfuse.observation.status_message': 'upstream overloaded', 'langfuse.observation.prompt.name': 'greeting', 'langfuse.observation.prompt.version': 4,
      'langfuse.observation.completion_start_time': JSON.stringify('2023-11-14T22:13:20.250Z'), 'langfuse.environment': 'production',
    } },
  );
  assert.is(r.skipped, 1, 'the span observation is context');
  const item = r.items[0];
  assert.is(item.model, 'claude-3-5-sonnet');
  assert.equal(item.input, [{ role: 'user', content: 'Hello' }]);
  assert.equal(item.output, { role: 'assistant', content: 'Hi!' });
  assert.equal(item.tokens, { input: 12, output: 3, cache_read: 2 });
  assert.ok(Math.abs(item.cost_usd! - 0.0003) < 1e-12);
  assert.is(item.status, 'error');
  assert.is(item.error, 'upstream overloaded');
  assert.equal(item.prompt_template, { name: 'greeting', raw: 'prompt "greeting" version 4 (text kept by the sender\'s prompt registry)' });
  assert.is(item.user_id, 'u-42', 'trace-level fields come from the other span of the trace in the request');
  assert.is(item.session_id, 'chat-1');
  assert.equal(item.tags, ['prod', 'eu']);
  assert.is(item.metadata!.feature, 'greet');
  assert.is(item.metadata!.region, 'eu-west');
  const otel = item.metadata!.otel as any;
  assert.is(otel.trace_name, 'support-bot');
  assert.is(otel.environment, 'production');
  assert.is(otel.level, 'ERROR');
  assert.is(otel.time_to_first_token_ms, 250);
  assert.equal(otel.parameters, { temperature: 0.7 });
});

test('content on span events (gen_ai.content.prompt/completion) when no attribute carries it', () => {
  const item = only({
    attributes: { 'gen_ai.system': 'anthropic', 'gen_ai.request.model': 'claude-3-haiku', 'gen_ai.usage.input_tokens': 3, 'gen_ai.usage.output_tokens': 2 },
    events: [
      { name: 'gen_ai.content.prompt', atMs: 1_700_000_000_200, attributes: { 'gen_ai.prompt': JSON.stringify([{ role: 'user', content: 'Hi' }]) } },
      { name: 'gen_ai.content.completion', atMs: 1_700_000_000_300, attributes: { 'gen_ai.completion': 'Hello!' } },
    ],
  });
  assert.equal(item.input, [{ role: 'user', content: 'Hi' }]);
  assert.equal(item.output, [{ role: 'assistant', content: 'Hello!' }]);
});

test('an error span: status ERROR with its message, or an exception event\'s message', () => {
  const a = only({ attributes: { 'gen_ai.request.model': 'm', 'gen_ai.usage.input_tokens': 1 }, status: { code: 2, message: '429 Too Many Requests' } });
  assert.is(a.status, 'error');
  assert.is(a.error, '429 Too Many Requests');
  const b = only({
    attributes: { 'gen_ai.request.model': 'm', 'error.type': 'RateLimitError' }, status: { code: 2 },
    events: [{ name: 'exception', atMs: 1_700_000_000_500, attributes: { 'exception.type': 'RateLimitError', 'exception.message': 'slow down' } }],
  });
  assert.is(b.error, 'slow down');
  assert.is(b.metadata!.usage_missing, true, 'a model and no usage is marked, never silently zero');
  assert.is(b.tokens, undefined);
});

test('not an LLM call: skipped as context; tokens with no model: kept under model "unknown"', () => {
  const r = mapSpans(
    { name: 'GET /api/answer', attributes: { 'http.request.method': 'GET' } },
    { name: 'workflow', attributes: { 'traceloop.span.kind': 'workflow' } },
    { name: 'mystery', attributes: { 'gen_ai.usage.input_tokens': 40, 'gen_ai.usage.output_tokens': 2 } },
  );
  assert.is(r.skipped, 2);
  assert.is(r.items.length, 1);
  assert.is(r.items[0].model, 'unknown');
  assert.is(r.items[0].metadata!.model_missing, true);
  assert.equal(r.items[0].tokens, { input: 40, output: 2 });
});

test('counts that are not counts are kept in metadata, and the next attribute present is used', () => {
  const item = only({ attributes: { 'gen_ai.request.model': 'm', 'gen_ai.usage.input_tokens': 'lots', 'llm.token_count.prompt': 9, 'gen_ai.usage.output_tokens': -1 } });
  assert.equal(item.tokens, { input: 9 });
  assert.equal((item.metadata!.otel as any).usage_invalid, { 'gen_ai.usage.input_tokens': 'lots', 'gen_ai.usage.output_tokens': -1 });
});

const manual = (spans: { traceId: string; spanId: string; name?: string }[]): OtlpTraceRequest => ({
  spanCount: spans.length,
  resourceSpans: [{ resource: { attributes: emptyAttributes() }, scopeSpans: [{ scope: { name: 's', version: '', attributes: emptyAttributes() }, spans: spans.map((s) => ({
    traceId: s.traceId, spanId: s.spanId, parentSpanId: '', name: s.name ?? 'chat', kind: 3, startTimeUnixNano: 1e18, endTimeUnixNano: 1e18 + 5e6,
    attributes: Object.assign(emptyAttributes(), { 'gen_ai.request.model': 'm', 'gen_ai.usage.input_tokens': 1 }),
    droppedAttributesCount: 0, events: [], status: { code: 0, message: '' },
  })) }] }],
});

test('spans with unusable ids are rejected with reasons, feeding partial_success; a repeated span is stored once', () => {
  const good = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) };
  const r = mapOtlpRequest(manual([
    good, { ...good },
    { traceId: '0'.repeat(32), spanId: 'cd'.repeat(8), name: 'zero-trace' },
    { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(4), name: 'short-span' },
    { traceId: 'not-an-id', spanId: 'cd'.repeat(8), name: 'garbage' },
  ]));
  assert.is(r.items.length, 1);
  assert.is(r.skipped, 1);
  assert.equal(r.rejected.map((x) => [x.name, x.reason]), [
    ['zero-trace', 'trace_id is not 16 non-zero bytes'], ['short-span', 'span_id is not 8 non-zero bytes'], ['garbage', 'trace_id is not 16 non-zero bytes'],
  ]);
  const partial = partialSuccessOf(r.rejected)!;
  assert.is(partial.rejectedSpans, 3);
  assert.match(partial.errorMessage, '3 span(s) rejected: span "zero-trace"');
  assert.is(partialSuccessOf([]), undefined);
  const many = partialSuccessOf(Array.from({ length: 9 }, (_, i) => ({ trace_id: 't', span_id: 's', name: `n${i}`, reason: 'r' })))!;
  assert.match(many.errorMessage, 'and 4 more');
});

test('the same span mapped twice gives the same item id (a retried export is idempotent); different spans differ', () => {
  const a = mapOtlpRequest(manual([{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) }])).items[0].id;
  const b = mapOtlpRequest(manual([{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) }])).items[0].id;
  const c = mapOtlpRequest(manual([{ traceId: 'ab'.repeat(16), spanId: 'ce'.repeat(8) }])).items[0].id;
  assert.is(a, b);
  assert.is.not(a, c);
});

test('hostile attribute text: deep JSON stays a string, __proto__ keys stay keys, nothing throws', () => {
  const deep = '['.repeat(10_000) + ']'.repeat(10_000);
  const item = only({ attributes: {
    'gen_ai.request.model': 'm', 'gen_ai.input.messages': deep, 'gen_ai.output.messages': '{not json',
    'langfuse.observation.metadata': '{"__proto__":{"polluted":true},"ok":1}',
  } });
  assert.is(item.input, undefined);
  assert.is(({} as any).polluted, undefined);
  assert.is(item.metadata!.ok, 1);
  assert.is(Object.getPrototypeOf(item.metadata), Object.prototype);
  assert.not.throws(() => JSON.stringify(item));
});

test.run();
