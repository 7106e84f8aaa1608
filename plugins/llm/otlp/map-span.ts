/**
 * One OTLP span → one trace item, when the span is an LLM call.
 *
 * An LLM call is a span with a model (span-fields.ts MODEL_KEYS), or with token counts and no model (then the model
 * is "unknown" and `metadata.model_missing` is set: token counts are never dropped). Every other span (HTTP, DB,
 * framework, agent and tool spans, and the Vercel AI SDK's outer `ai.generateText`-style spans, which repeat their
 * inner call's usage) is context: accepted, not stored as an item (see map-request.ts for what it contributes).
 * An LLM span without usage is stored with `metadata.usage_missing = true`.
 */
import type { TraceItem } from '../trace-item.js';
import { firstString, isoFromUnixNano, jsonAttribute } from './attribute-values.js';
import type { ChatMessage } from './chat-message.js';
import { embeddingInputs, eventMessages, legacyGenAiMessages, openInferenceMessages, semconvMessages, vercelMessages } from './genai-messages.js';
import { spanUsage } from './genai-usage.js';
import { spanItemId } from './item-id.js';
import type { OtlpAttributes, OtlpScope, OtlpSpan } from './otlp-model.js';
import {
  MODEL_KEYS, isVercelWrapper, requestParameters, spanError, spanOperation, spanPromptTemplate, spanProvider,
  timeToFirstTokenMs, traceFields,
} from './span-fields.js';

export type SpanOutcome =
  | { kind: 'item'; item: TraceItem }
  | { kind: 'context' }
  | { kind: 'rejected'; reason: string };

const ZERO = /^0+$/;

/** Why the span's ids cannot identify it, or undefined when they can. */
export function idProblem(span: OtlpSpan): string | undefined {
  if (span.traceId.length !== 32 || !/^[0-9a-f]+$/.test(span.traceId) || ZERO.test(span.traceId)) return 'trace_id is not 16 non-zero bytes';
  if (span.spanId.length !== 16 || !/^[0-9a-f]+$/.test(span.spanId) || ZERO.test(span.spanId)) return 'span_id is not 8 non-zero bytes';
  return undefined;
}

/** Input and output: Langfuse's explicit values first (as the app gave them), then the conventions in order. */
function messagesOf(span: OtlpSpan): { input?: unknown; output?: unknown } {
  const a = span.attributes;
  let input: unknown = jsonAttribute(a['langfuse.observation.input']);
  let output: unknown = jsonAttribute(a['langfuse.observation.output']);
  for (const read of [semconvMessages, legacyGenAiMessages, openInferenceMessages, vercelMessages] as ((x: OtlpAttributes) => { input?: ChatMessage[]; output?: ChatMessage[] })[]) {
    if (input !== undefined && output !== undefined) break;
    const m = read(a);
    input ??= m.input;
    output ??= m.output;
  }
  if (input === undefined || output === undefined) {
    const m = eventMessages(span.events);
    input ??= m.input;
    output ??= m.output;
  }
  input ??= embeddingInputs(a);
  // OpenInference's raw request/response, when it wrote no messages.
  input ??= jsonAttribute(a['input.value']);
  output ??= jsonAttribute(a['output.value']);
  return { input, output };
}

export function mapSpan(span: OtlpSpan, resource: OtlpAttributes, scope: OtlpScope): SpanOutcome {
  const problem = idProblem(span);
  if (problem) return { kind: 'rejected', reason: problem };
  const a = span.attributes;
  if (isVercelWrapper(a)) return { kind: 'context' };
  const model = firstString(a, MODEL_KEYS);
  const usage = spanUsage(a);
  if (model === undefined && usage.tokens === undefined) return { kind: 'context' };

  const item: TraceItem = { model: model ?? 'unknown', id: spanItemId(span.traceId, span.spanId), name: span.name };
  const provider = spanProvider(a);
  if (provider) item.provider = provider;
  const { status, error } = spanError(span);
  item.status = status;
  if (error) item.error = error;
  const start = isoFromUnixNano(span.startTimeUnixNano);
  if (start) item.start_time = start;
  if (span.endTimeUnixNano >= span.startTimeUnixNano && span.startTimeUnixNano > 0) {
    item.latency_ms = Math.round((span.endTimeUnixNano - span.startTimeUnixNano) / 1e3) / 1e3;
  }
  if (usage.tokens) item.tokens = usage.tokens;
  if (usage.cost_usd !== undefined) item.cost_usd = usage.cost_usd;
  const { input, output } = messagesOf(span);
  if (input !== undefined) item.input = input;
  if (output !== undefined) item.output = output;
  const template = spanPromptTemplate(a, span.name);
  if (template) item.prompt_template = template;

  const trace = traceFields(a);
  if (trace.user_id) item.user_id = trace.user_id;
  if (trace.session_id) item.session_id = trace.session_id;
  if (trace.tags) item.tags = trace.tags;

  const otel: Record<string, unknown> = {
    trace_id: span.traceId,
    span_id: span.spanId,
    ...(span.parentSpanId ? { parent_span_id: span.parentSpanId } : {}),
    span_kind: span.kind,
    scope: scope.version ? `${scope.name}@${scope.version}` : scope.name,
  };
  const service = firstString(resource, ['service.name']);
  if (service) otel.service = service;
  const environment = firstString(a, ['langfuse.environment']) ?? firstString(resource, ['deployment.environment.name', 'deployment.environment']);
  if (environment) otel.environment = environment;
  const release = firstString(a, ['langfuse.release']) ?? firstString(resource, ['service.version']);
  if (release) otel.release = release;
  const operation = spanOperation(a);
  if (operation) otel.operation = operation;
  const requestModel = firstString(a, ['gen_ai.request.model']);
  if (requestModel && requestModel !== item.model) otel.request_model = requestModel;
  const responseId = firstString(a, ['gen_ai.response.id', 'ai.response.id']);
  if (responseId) otel.response_id = responseId;
  const finish = a['gen_ai.response.finish_reasons'] ?? a['llm.finish_reason'] ?? a['ai.response.finishReason'];
  if (finish !== undefined && finish !== null) otel.finish_reasons = Array.isArray(finish) ? finish : [finish];
  const params = requestParameters(a);
  if (params) otel.parameters = params;
  const ttft = timeToFirstTokenMs(a, span.startTimeUnixNano);
  if (ttft !== undefined) otel.time_to_first_token_ms = ttft;
  const level = firstString(a, ['langfuse.observation.level']);
  if (level) otel.level = level;
  if (trace.trace_name) otel.trace_name = trace.trace_name;
  if (usage.invalid.length > 0) otel.usage_invalid = Object.fromEntries(usage.invalid.map((k) => [k, jsonAttribute(a[k])]));
  if (span.droppedAttributesCount > 0) otel.dropped_attributes = span.droppedAttributesCount;

  item.metadata = {
    ...trace.trace_metadata,
    ...trace.metadata,
    otel,
    ...(usage.tokens === undefined ? { usage_missing: true } : {}),
    ...(model === undefined ? { model_missing: true } : {}),
  };
  return { kind: 'item', item };
}
