import type { HttpRoutes, RouteContext } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';
import { ingestInChunks } from './ingest-chunks.js';
import type { IngestPipeline } from './ingest-pipeline.js';
import { LANGFUSE_SCHEME } from './langfuse-auth.js';
import { decodeOtlpBody, encodeOtlpResponse } from './otlp/export-body.js';
import { mapOtlpRequest, partialSuccessOf, type SpanRejection } from './otlp/map-request.js';
import { PROJECT_KEY_SCHEME } from './project-auth.js';
import { readOtlpRequest } from './otlp-request.js';

/** The span a mapped item came from, for a rejection in `partial_success`. */
function spanOf(item: { name?: string; metadata?: Record<string, unknown> }, reason: string): SpanRejection {
  const otel = (item.metadata?.otel ?? {}) as { trace_id?: string; span_id?: string };
  return { trace_id: otel.trace_id ?? '', span_id: otel.span_id ?? '', name: item.name ?? '', reason };
}

/**
 * One OTLP/HTTP trace export: decoded by its content type (protobuf or JSON, gzip or not), mapped to trace items
 * (plugins/llm/otlp), and handed to the ingest pipeline. Answers 200 with ExportTraceServiceResponse in the request's
 * encoding; spans refused by the mapping or by item validation are counted in `partial_success`. Spans that are not LLM
 * calls are context (counted, not stored, not rejections).
 */
async function exportHandler(ctx: RouteContext, pipeline: IngestPipeline): Promise<Buffer> {
  const { project, encoding, decoded: mapped } = await readOtlpRequest(ctx, (type, body) => mapOtlpRequest(decodeOtlpBody(type, body)), LlmErrors.OTLP_BODY);
  const outcome = await ingestInChunks(pipeline, project, mapped.items);
  const refused = outcome.errors.map((e) => spanOf(mapped.items[e.index], `${e.code}: ${e.message}`));
  const response = encodeOtlpResponse(encoding, partialSuccessOf(mapped.rejected, refused));
  ctx.type = response.contentType;
  return Buffer.from(response.body);
}

export function registerOtlpRoutes(http: HttpRoutes, pipeline: IngestPipeline, maxBodyBytes: number): void {
  const common = { method: 'POST' as const, rawBody: true, bodyLimit: maxBodyBytes, tags: ['llm'] };
  http.route({
    ...common, path: '/v1/otlp/traces', auth: PROJECT_KEY_SCHEME,
    summary: 'Ingest an OpenTelemetry trace export (OTLP/HTTP, protobuf or JSON); LLM spans become trace items',
    description: 'Every GenAI convention in use is mapped (plugins/llm/otlp/README.md). Answers ExportTraceServiceResponse, with partial_success for refused spans.',
    handler: (ctx) => exportHandler(ctx, pipeline),
  });
  http.route({
    ...common, path: '/api/public/otel/v1/traces', auth: LANGFUSE_SCHEME,
    summary: 'Langfuse-compatible OTLP ingest (@langfuse/otel): the OTLP route, with Langfuse\'s Basic auth and langfuse.* attributes',
    handler: (ctx) => exportHandler(ctx, pipeline),
  });
}
