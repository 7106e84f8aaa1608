import type { HttpRoutes } from '@vigil/plugin-sdk';
import { laneBody } from './ingest-route.js';
import type { LlmLane } from './lane/llm-lane.js';
import { langfuseHealthBody } from './langfuse/basic-auth.js';
import { INGESTION_STATUS } from './langfuse/ingestion-response.js';
import { LANGFUSE_SCHEME } from './langfuse-auth.js';
import { projectOf } from './project-auth.js';
import { langfuseHealthSchema, langfuseIngestionSchema } from './api/schemas.js';

/**
 * The Langfuse-compatible legacy ingestion (`langfuse` v3 SDKs) and health check. A batch's events are merged into
 * the project's partial state (plugins/llm/langfuse) and generations that became complete LLM calls are stored, in
 * the LLM lane's worker threads; scores go to the `llm.score.received` topic (the evaluators plugin keeps them apart
 * from eval results), redacted, after the generations they may score were stored.
 */
export function registerLangfuseRoutes(http: HttpRoutes, lane: LlmLane, options: { maxBodyBytes: number; version: string }): void {
  http.route({
    method: 'GET', path: '/api/public/health', auth: 'none', tags: ['llm'],
    summary: 'Langfuse-compatible health check',
    response: langfuseHealthSchema,
    handler: () => langfuseHealthBody(options.version),
  });
  http.route({
    method: 'POST', path: '/api/public/ingestion', auth: LANGFUSE_SCHEME, rawBody: true, bodyLimit: options.maxBodyBytes, tags: ['llm'],
    summary: 'Langfuse-compatible batch ingestion: { batch: [{ id, type, timestamp, body }] }, answered 207 { successes, errors }',
    status: INGESTION_STATUS,
    response: langfuseIngestionSchema,
    async handler(ctx) {
      const result = await lane.run(projectOf(ctx), { kind: 'langfuse', body: laneBody(ctx) });
      ctx.status = INGESTION_STATUS;
      return (result.answer as { json: unknown }).json;
    },
  });
}
