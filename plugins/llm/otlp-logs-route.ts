import type { HttpRoutes } from '@vigil/plugin-sdk';
import type { LlmLane } from './lane/llm-lane.js';
import { LANGFUSE_SCHEME } from './langfuse-auth.js';
import { otlpAnswer } from './otlp-routes.js';
import { PROJECT_KEY_SCHEME } from './project-auth.js';
import { otlpAnswerBody } from './api/schemas.js';

/**
 * One OTLP/HTTP logs export: GenAI message events become the messages of their span's trace (the span itself
 * comes on the traces route, before or after). Answers 200 with ExportLogsServiceResponse in the request's
 * encoding once the messages are stored; GenAI events without the ids of their span are counted in
 * `partial_success`; every other log record is accepted and not used. The project's plan limits hold as on the
 * traces route: 413 past `limits.body_bytes` (sent or inflated); any number of spans' messages per export (an
 * exporter's request is not a batch to split); log records never count as items, but once the month's items are
 * used the export is refused (429, Retry-After).
 */
export function registerOtlpLogsRoutes(http: HttpRoutes, lane: LlmLane, maxBodyBytes: number): void {
  const common = { method: 'POST' as const, rawBody: true, bodyLimit: maxBodyBytes, tags: ['llm'], response: otlpAnswerBody };
  http.route({
    ...common, path: '/v1/otlp/logs', auth: PROJECT_KEY_SCHEME,
    summary: 'Ingest an OpenTelemetry logs export (OTLP/HTTP, protobuf or JSON); GenAI message events become the messages of their span\'s trace',
    description: 'Reads gen_ai.{system,user,assistant,tool}.message and gen_ai.choice events (plugins/llm/README.md); spans and logs may come in any order. Answers ExportLogsServiceResponse, with partial_success for GenAI events without span ids.',
    handler: (ctx) => otlpAnswer(ctx, lane, 'otlp-logs'),
  });
  http.route({
    ...common, path: '/api/public/otel/v1/logs', auth: LANGFUSE_SCHEME,
    summary: 'Langfuse-compatible OTLP logs ingest: the OTLP logs route, with Langfuse\'s Basic auth',
    handler: (ctx) => otlpAnswer(ctx, lane, 'otlp-logs'),
  });
}
