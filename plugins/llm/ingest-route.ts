import { HttpError, type HttpRoutes } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';
import { parseIngestBody } from './ingest-body.js';
import type { IngestPipeline } from './ingest-pipeline.js';
import { PROJECT_KEY_SCHEME, projectOf } from './project-auth.js';

const outcomeSchema = {
  type: 'object',
  properties: {
    accepted: { type: 'integer' },
    rejected: { type: 'integer' },
    sampled_out: { type: 'integer' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { index: { type: 'integer' }, code: { type: 'string' }, message: { type: 'string' }, path: { type: 'string' } } },
    },
    ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
  },
};

/**
 * `POST /v1/traces`: `{ "traces": [item, …] }`, JSON, gzip or not. The body is read raw up to `maxBodyBytes` (the
 * largest any project may send) and checked against the project's own limit before and after inflating.
 */
export function registerIngestRoute(http: HttpRoutes, pipeline: IngestPipeline, maxBodyBytes: number): void {
  http.route({
    method: 'POST', path: '/v1/traces', auth: PROJECT_KEY_SCHEME, rawBody: true, bodyLimit: maxBodyBytes, status: 202, tags: ['llm'],
    summary: 'Ingest a batch of LLM trace items',
    description: 'Body `{ "traces": [item, …] }` (application/json, optionally Content-Encoding: gzip). Each item is validated on its own: '
      + 'invalid ones are counted in `rejected` and described in `errors`; the others are accepted, and `ids` holds their ids in order. '
      + 'The wire contract is in plugins/llm/README.md.',
    response: outcomeSchema,
    async handler(ctx) {
      const project = projectOf(ctx);
      const body = await parseIngestBody(ctx.request.body as Buffer, ctx.headers as Record<string, string>, project.settings.bodyBytes);
      if (body === null || typeof body !== 'object' || Array.isArray(body) || !Array.isArray((body as { traces?: unknown }).traces)) {
        throw new HttpError(400, LlmErrors.BODY, 'the body must be an object with a "traces" array: { "traces": [ item, … ] }');
      }
      const extra = Object.keys(body).find((k) => k !== 'traces');
      if (extra !== undefined) throw new HttpError(400, LlmErrors.BODY, `the body has an unknown key ${JSON.stringify(extra)}; it holds only "traces"`);
      return pipeline.ingestItems(project, (body as { traces: unknown[] }).traces);
    },
  });
}
