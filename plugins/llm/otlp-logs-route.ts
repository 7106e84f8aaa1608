import type { HttpRoutes, RouteContext } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';
import { LANGFUSE_SCHEME } from './langfuse-auth.js';
import { mapOtlpLogs, type LogRejection, type SpanMessages } from './otlp/genai-log-events.js';
import { decodeOtlpLogsBody, encodeOtlpLogsResponse } from './otlp/logs-body.js';
import type { OtlpPartialSuccess } from './otlp/encode-response.js';
import { PROJECT_KEY_SCHEME } from './project-auth.js';
import { readOtlpRequest } from './otlp-request.js';
import type { LlmProject } from './types.js';

/** Makes the messages durable (a persist job of kind `messages`); resolves once they are in the queue. */
export type EnqueueMessages = (project: LlmProject, spans: SpanMessages[]) => Promise<void>;

const LISTED = 5;

function partialSuccessOf(rejected: readonly LogRejection[]): OtlpPartialSuccess | undefined {
  if (!rejected.length) return undefined;
  const listed = rejected.slice(0, LISTED).map((r) => `${r.event} (trace ${r.trace_id || '?'}, span ${r.span_id || '?'}): ${r.reason}`);
  const more = rejected.length > LISTED ? `; and ${rejected.length - LISTED} more` : '';
  return { rejectedSpans: rejected.length, errorMessage: `${rejected.length} log record(s) rejected: ${listed.join('; ')}${more}` };
}

/**
 * One OTLP/HTTP logs export: GenAI message events become the messages of their span's trace item (the span itself
 * comes on the traces route, before or after). Answers 200 with ExportLogsServiceResponse in the request's
 * encoding once the messages are in the durable queue; GenAI events without the ids of their span are counted in
 * `partial_success`; every other log record is accepted and not used. The project's plan limits hold as on the
 * traces route: 413 past `limits.body_bytes` (sent or inflated); any number of spans' messages per export (an
 * exporter's request is not a batch to split); log records never count as items, but `enqueue` refuses (429,
 * Retry-After) once the month's items are used.
 */
async function logsHandler(ctx: RouteContext, enqueue: EnqueueMessages): Promise<Buffer> {
  const { project, encoding, decoded: mapped } = await readOtlpRequest(ctx, (type, body) => mapOtlpLogs(decodeOtlpLogsBody(type, body)), LlmErrors.OTLP_LOGS_BODY);
  if (mapped.spans.length) await enqueue(project, mapped.spans);
  const response = encodeOtlpLogsResponse(encoding, partialSuccessOf(mapped.rejected));
  ctx.type = response.contentType;
  return Buffer.from(response.body);
}

export function registerOtlpLogsRoutes(http: HttpRoutes, enqueue: EnqueueMessages, maxBodyBytes: number): void {
  const common = { method: 'POST' as const, rawBody: true, bodyLimit: maxBodyBytes, tags: ['llm'] };
  http.route({
    ...common, path: '/v1/otlp/logs', auth: PROJECT_KEY_SCHEME,
    summary: 'Ingest an OpenTelemetry logs export (OTLP/HTTP, protobuf or JSON); GenAI message events become the messages of their span\'s trace',
    description: 'Reads gen_ai.{system,user,assistant,tool}.message and gen_ai.choice events (plugins/llm/README.md); spans and logs may come in any order. Answers ExportLogsServiceResponse, with partial_success for GenAI events without span ids.',
    handler: (ctx) => logsHandler(ctx, enqueue),
  });
  http.route({
    ...common, path: '/api/public/otel/v1/logs', auth: LANGFUSE_SCHEME,
    summary: 'Langfuse-compatible OTLP logs ingest: the OTLP logs route, with Langfuse\'s Basic auth',
    handler: (ctx) => logsHandler(ctx, enqueue),
  });
}
