// OTLP/JSON bodies as @opentelemetry/instrumentation-openai exports them (its span: model and tokens, no content;
// its log events: the messages), for the tests of the OTLP logs route and of evals over such traces.
import type { Json } from './llm-client.js';

/** The span id of the one chat call each trace holds. */
export const SPAN = '00f067aa0ba902b7';

export const attr = (key: string, value: string | number): Json =>
  ({ key, value: typeof value === 'number' ? { intValue: value } : { stringValue: value } });

/** An OTLP AnyValue map of `o` (nested objects become nested maps, other values strings). */
export const kv = (o: Json): Json =>
  ({ kvlistValue: { values: Object.entries(o).map(([key, v]) => ({ key, value: typeof v === 'object' ? kv(v) : { stringValue: String(v) } })) } });

const SCOPE = { name: '@opentelemetry/instrumentation-openai' };
const RESOURCE = { attributes: [attr('service.name', 'app')] };

/** The chat span: gpt-4o-mini, 21 tokens in, 7 out, no content. */
export const spanBody = (traceId: string): string => JSON.stringify({ resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ scope: SCOPE, spans: [{
  traceId, spanId: SPAN, name: 'chat gpt-4o-mini', kind: 3, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000300000000', status: {},
  attributes: [attr('gen_ai.system', 'openai'), attr('gen_ai.operation.name', 'chat'), attr('gen_ai.request.model', 'gpt-4o-mini'), attr('gen_ai.usage.input_tokens', 21), attr('gen_ai.usage.output_tokens', 7)],
}] }] }] });

/**
 * Its log records: the system message, the user's (named by the `event.name` attribute, as older SDKs do), the
 * choice, and a log record that is not a GenAI event.
 */
export const logRecords = (traceId: string, user = 'What is the capital of France?'): Json[] => [
  { timeUnixNano: '1700000000000000000', traceId, spanId: SPAN, eventName: 'gen_ai.system.message', body: kv({ content: 'Be brief.' }), attributes: [attr('gen_ai.system', 'openai')] },
  { timeUnixNano: '1700000000000000000', traceId, spanId: SPAN, attributes: [attr('event.name', 'gen_ai.user.message')], body: kv({ content: user }) },
  { timeUnixNano: '1700000000300000000', traceId, spanId: SPAN, eventName: 'gen_ai.choice', body: { kvlistValue: { values: [
    { key: 'index', value: { intValue: 0 } }, { key: 'finish_reason', value: { stringValue: 'stop' } },
    { key: 'message', value: kv({ content: 'Paris.' }) }] } } },
  { timeUnixNano: '1700000000300000000', traceId, spanId: SPAN, body: { stringValue: 'GET /v1/chat/completions 200' } },
];

/** The logs export holding `logRecords(traceId, user)`. */
export const logsBody = (traceId: string, user?: string): string =>
  JSON.stringify({ resourceLogs: [{ resource: RESOURCE, scopeLogs: [{ scope: SCOPE, logRecords: logRecords(traceId, user) }] }] });
