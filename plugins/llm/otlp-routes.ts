import type { HttpRoutes, RouteContext } from '@vigil/plugin-sdk';
import { laneBody } from './ingest-route.js';
import type { LlmLane } from './lane/llm-lane.js';
import { LANGFUSE_SCHEME } from './langfuse-auth.js';
import { PROJECT_KEY_SCHEME, projectOf } from './project-auth.js';
import { otlpAnswerBody } from './api/schemas.js';

/**
 * Hands an OTLP/HTTP export to the LLM lane (decoding, mapping and storing happen in its worker threads) and
 * answers with what the lane encoded: an Export…ServiceResponse in the request's encoding.
 */
export async function otlpAnswer(ctx: RouteContext, lane: LlmLane, kind: 'otlp-traces' | 'otlp-logs'): Promise<Buffer> {
  const result = await lane.run(projectOf(ctx), { kind, body: laneBody(ctx) });
  const answer = result.answer as { bytes: Uint8Array | string; contentType: string };
  ctx.type = answer.contentType;
  return Buffer.from(answer.bytes);
}

/**
 * One OTLP/HTTP trace export: decoded by its content type (protobuf or JSON, gzip or not), mapped to trace items
 * (plugins/llm/otlp), and stored. Answers 200 with ExportTraceServiceResponse in the request's encoding; spans
 * refused by the mapping or by item validation are counted in `partial_success`. Spans that are not LLM calls are
 * context (counted, not stored, not rejections).
 */
export function registerOtlpRoutes(http: HttpRoutes, lane: LlmLane, maxBodyBytes: number): void {
  const common = { method: 'POST' as const, rawBody: true, bodyLimit: maxBodyBytes, tags: ['llm'], response: otlpAnswerBody };
  http.route({
    ...common, path: '/v1/otlp/traces', auth: PROJECT_KEY_SCHEME,
    summary: 'Ingest an OpenTelemetry trace export (OTLP/HTTP, protobuf or JSON); LLM spans become trace items',
    description: 'Every GenAI convention in use is mapped (plugins/llm/otlp/README.md). Answers ExportTraceServiceResponse, with partial_success for refused spans.',
    handler: (ctx) => otlpAnswer(ctx, lane, 'otlp-traces'),
  });
  http.route({
    ...common, path: '/api/public/otel/v1/traces', auth: LANGFUSE_SCHEME,
    summary: 'Langfuse-compatible OTLP ingest (@langfuse/otel): the OTLP route, with Langfuse\'s Basic auth and langfuse.* attributes',
    handler: (ctx) => otlpAnswer(ctx, lane, 'otlp-traces'),
  });
}
