import { HttpError, type Counter, type HttpRoutes, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';
import { parseIngestBody } from './ingest-body.js';
import { ingestInChunks } from './ingest-chunks.js';
import type { IngestPipeline } from './ingest-pipeline.js';
import { applyLangfuseBatch } from './langfuse/apply-batch.js';
import { langfuseHealthBody } from './langfuse/basic-auth.js';
import { LangfuseBatchError, parseIngestionBatch } from './langfuse/ingestion-event.js';
import { INGESTION_STATUS, ingestionResponse } from './langfuse/ingestion-response.js';
import { LANGFUSE_SCHEME } from './langfuse-auth.js';
import { withLangfuseState } from './langfuse-state.js';
import { projectOf } from './project-auth.js';
import type { LlmProject } from './types.js';
import type { LangfuseScore } from './langfuse/score.js';

/**
 * The Langfuse-compatible legacy ingestion (`langfuse` v3 SDKs) and health check. A batch's events are merged into
 * the project's partial state (plugins/llm/langfuse); generations that became complete LLM calls go to the ingest
 * pipeline. Scores go to `publishScores` (the `llm.score.received` topic, which the evaluators plugin keeps apart from eval results),
 * after the generations they may score were handed on.
 */
export function registerLangfuseRoutes(http: HttpRoutes, store: Store, pipeline: IngestPipeline, options: {
  maxBodyBytes: number;
  version: string;
  scores: Counter;
  publishScores: (project: LlmProject, scores: readonly LangfuseScore[]) => void;
}): void {
  http.route({
    method: 'GET', path: '/api/public/health', auth: 'none', tags: ['llm'],
    summary: 'Langfuse-compatible health check',
    handler: () => langfuseHealthBody(options.version),
  });
  http.route({
    method: 'POST', path: '/api/public/ingestion', auth: LANGFUSE_SCHEME, rawBody: true, bodyLimit: options.maxBodyBytes, tags: ['llm'],
    summary: 'Langfuse-compatible batch ingestion: { batch: [{ id, type, timestamp, body }] }, answered 207 { successes, errors }',
    async handler(ctx) {
      const project = projectOf(ctx);
      const payload = await parseIngestBody(ctx.request.body as Buffer, ctx.headers as Record<string, string>, project.settings.bodyBytes);
      let parsed;
      try {
        parsed = parseIngestionBatch(payload);
      } catch (err) {
        if (err instanceof LangfuseBatchError) throw new HttpError(400, LlmErrors.LANGFUSE_BATCH, err.message);
        throw err;
      }
      // Refused before the state changes: a batch that merged would not hand its generations over a second time.
      await pipeline.admit(project);
      const applied = await withLangfuseState(store, project.id, (state) => applyLangfuseBatch(state, parsed.events));
      await ingestInChunks(pipeline, project, applied.items);
      if (applied.scores.length) {
        options.scores.inc(applied.scores.length);
        options.publishScores(project, applied.scores);
      }
      ctx.status = INGESTION_STATUS;
      return ingestionResponse(applied.applied, parsed.errors);
    },
  });
}
