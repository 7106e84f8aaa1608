import { httpError, type EvalStatus, type HttpRoutes, type LlmService, type RouteContext } from '@vigil/plugin-sdk';
import { EvaluatorsErrors, projectNotFound } from './errors.js';
import type { GoldenSets } from './golden-sets.js';
import type { ResultStore } from './results-store.js';
import { evalResultPageSchema, goldenSetDeletedSchema, goldenSetPageSchema, goldenSetSavedSchema } from './api-schemas.js';

const MAX_LIMIT = 200;
/** Golden sets a page holds: each may be 4 MB of expected outputs. */
const MAX_GOLDEN_SETS_PAGE = 20;
/** Rows a list skips by `offset` at most (the database reads each skipped row). */
const MAX_OFFSET = 10_000;

const pageProperties = {
  limit: { type: 'integer', minimum: 1, default: 50, description: `Page size; at most ${MAX_LIMIT} (a larger value is answered with ${MAX_LIMIT}).` },
  offset: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0, description: `Items to skip, at most ${MAX_OFFSET.toLocaleString('en-US')}.` },
};

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
    response: evalResultPageSchema,
    query: {
      type: 'object',
      properties: {
        eval_definition_id: { type: 'string', maxLength: 200 }, trace_id: { type: 'string', maxLength: 64 }, status: { enum: ['ok', 'failed', 'skipped'], description: 'skipped: the trace had no output (on_missing_output: skip).' },
        since: { type: 'integer', minimum: 0, description: 'Epoch ms.' },
        ...pageProperties,
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
        ...(q.status !== undefined ? { status: q.status as EvalStatus } : {}),
        ...(q.since !== undefined ? { since: Number(q.since) } : {}),
      });
      return { data, limit, offset };
    },
  });

  http.route({
    method: 'GET', path: '/api/llm/projects/:project/golden-sets', tags: ['evaluators'],
    summary: 'A project\'s golden sets: expected outputs per prompt template, for semantic_similarity and {{expected}}',
    response: goldenSetPageSchema,
    description: `Paged by template name, at most ${MAX_GOLDEN_SETS_PAGE} sets a page: a set holds up to 200 outputs of 20,000 characters.`,
    query: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, default: MAX_GOLDEN_SETS_PAGE, description: `Sets a page holds; at most ${MAX_GOLDEN_SETS_PAGE}.` },
        offset: pageProperties.offset,
      },
    },
    async handler(ctx) {
      const project = await projectOf(ctx);
      const limit = Math.min(Number(ctx.query.limit ?? MAX_GOLDEN_SETS_PAGE), MAX_GOLDEN_SETS_PAGE);
      const offset = Number(ctx.query.offset ?? 0);
      const sets = await golden.list(project.id, { limit, offset });
      return { data: sets.map((g) => ({ ...g, updated_at: new Date(g.updated_at).toISOString() })), limit, offset };
    },
  });

  http.route({
    method: 'PUT', path: '/api/llm/projects/:project/golden-sets/:template', role: 'member', tags: ['evaluators'],
    summary: 'Set the golden set (expected outputs) of a prompt template',
    response: goldenSetSavedSchema,
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
    response: goldenSetDeletedSchema,
    query: { type: 'object', properties: {} },
    async handler(ctx) {
      const project = await projectOf(ctx);
      if (!(await golden.delete(project.id, ctx.params.template))) {
        throw httpError(EvaluatorsErrors.GOLDEN_SET_NOT_FOUND, `template ${JSON.stringify(ctx.params.template)} has no golden set`);
      }
      return { deleted: ctx.params.template };
    },
  });
}
