import { HttpError, type HttpRoutes, type LlmService, type RouteContext } from '@vigil/plugin-sdk';
import { EvaluatorsErrors, projectNotFound } from './errors.js';
import type { GoldenSets } from './golden-sets.js';
import type { ResultStore } from './results-store.js';

const MAX_LIMIT = 200;

/**
 * The dashboard's reads of results (the public API has `/api/v1/eval-results` under the project key) and the golden
 * sets per template, behind the dashboard token.
 */
export function registerResultRoutes(http: HttpRoutes, llm: LlmService, results: ResultStore, golden: GoldenSets): void {
  const projectOf = async (ctx: RouteContext) => {
    const project = await llm.project(ctx.params.project);
    if (!project) throw projectNotFound(ctx.params.project);
    return project;
  };

  http.route({
    method: 'GET', path: '/api/llm/projects/:project/eval-results', tags: ['evaluators'],
    summary: 'A project\'s eval results, newest first, with the judge\'s reasoning and each failure\'s reason',
    query: {
      type: 'object',
      properties: {
        eval_definition_id: { type: 'string' }, trace_id: { type: 'string' }, status: { enum: ['ok', 'failed'] },
        since: { type: 'integer', minimum: 0, description: 'Epoch ms.' },
        limit: { type: 'integer', minimum: 1, default: 50 }, offset: { type: 'integer', minimum: 0, default: 0 },
      },
    },
    async handler(ctx) {
      const project = await projectOf(ctx);
      const q = ctx.query as Record<string, string | number | undefined>;
      const limit = Math.min(Number(q.limit ?? 50), MAX_LIMIT);
      const offset = Number(q.offset ?? 0);
      const data = await results.list(project.id, {
        limit, offset,
        ...(q.eval_definition_id !== undefined ? { eval_definition_id: String(q.eval_definition_id) } : {}),
        ...(q.trace_id !== undefined ? { trace_id: String(q.trace_id).toLowerCase() } : {}),
        ...(q.status !== undefined ? { status: q.status as 'ok' | 'failed' } : {}),
        ...(q.since !== undefined ? { since: Number(q.since) } : {}),
      });
      return { data, limit, offset };
    },
  });

  http.route({
    method: 'GET', path: '/api/llm/projects/:project/golden-sets', tags: ['evaluators'],
    summary: 'A project\'s golden sets: expected outputs per prompt template, for semantic_similarity and {{expected}}',
    async handler(ctx) {
      const project = await projectOf(ctx);
      return { data: (await golden.list(project.id)).map((g) => ({ ...g, updated_at: new Date(g.updated_at).toISOString() })) };
    },
  });

  http.route({
    method: 'PUT', path: '/api/llm/projects/:project/golden-sets/:template', tags: ['evaluators'],
    summary: 'Set the golden set (expected outputs) of a prompt template',
    body: {
      type: 'object', additionalProperties: false, required: ['outputs'],
      properties: { outputs: { type: 'array', minItems: 1, maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 20000 } } },
    },
    async handler(ctx) {
      const project = await projectOf(ctx);
      const { outputs } = ctx.request.body as { outputs: string[] };
      await golden.put(project.id, ctx.params.template, outputs);
      return { template: ctx.params.template, outputs };
    },
  });

  http.route({
    method: 'DELETE', path: '/api/llm/projects/:project/golden-sets/:template', tags: ['evaluators'],
    summary: 'Remove the golden set of a prompt template',
    query: { type: 'object', properties: {} },
    async handler(ctx) {
      const project = await projectOf(ctx);
      if (!(await golden.delete(project.id, ctx.params.template))) {
        throw new HttpError(404, EvaluatorsErrors.GOLDEN_SET_NOT_FOUND, `template ${JSON.stringify(ctx.params.template)} has no golden set`);
      }
      return { deleted: ctx.params.template };
    },
  });
}
