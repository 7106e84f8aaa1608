import { httpError, type HttpRoutes, type LlmProjectRef, type LlmService, type PersistedTrace, type RouteContext } from '@vigil/plugin-sdk';
import { definitionSchema } from './config-schema.js';
import { definitionProblem } from './definition-check.js';
import type { EmbedderStatus } from './embedder-readiness.js';
import type { DefinitionStore } from './definitions.js';
import type { EvalEnqueuer } from './enqueue-hook.js';
import { definitionFromConfig, EvaluatorsErrors, projectNotFound } from './errors.js';
import { skips } from './evaluate.js';
import type { DefinitionStats, ResultStore } from './results-store.js';
import { sampleTrace } from './sample-trace.js';
import type { DefinitionInput, EvalDefinition, EvalOutcome } from './types.js';
import { definitionListSchema, definitionViewSchema, deletedDefinitionSchema, providersSchema, rerunSchema, savedDefinitionSchema, trialSchema } from './api-schemas.js';

/** A provider as the dashboard may see it: never its key. */
export interface ProviderView {
  name: string;
  base_url: string;
  model: string;
  has_key: boolean;
  /** The environment variable's name the key comes from (never its value); null when the config holds the key or none. */
  key_env: string | null;
}

export interface DefinitionRouteDeps {
  llm: LlmService;
  definitions: DefinitionStore;
  results: ResultStore;
  enqueuer: EvalEnqueuer;
  providers(): ProviderView[];
  ratePerMinute(projectId: string): number;
  /** One evaluation, as a job runs it (providers are called). Rejects when the provider is unavailable. */
  evaluate(definition: EvalDefinition, trace: PersistedTrace): Promise<EvalOutcome>;
  /** Readies what an evaluation needs (the embedder's one-time preparation), so that its latency is its own. */
  prepare?(definition: EvalDefinition): Promise<void>;
  /** Where the embedder's preparation stands. */
  embedderStatus?(): EmbedderStatus;
}

const MAX_RERUN = 10_000;
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const traceQuery = { type: 'object', properties: { trace_id: { type: 'string', description: 'The trace to try the definition on; default the project\'s latest in scope.' } } };

/**
 * The dashboard's eval definitions, behind the dashboard token, under `/api/llm/projects/:project/evals`. A
 * custom_function is compiled and run on a sample trace before it is saved, and the trial is in the answer.
 * State-changing requests must come from the dashboard's own page (the control plane checks it).
 */
export function registerDefinitionRoutes(http: HttpRoutes, deps: DefinitionRouteDeps): void {
  const { llm, definitions, results } = deps;

  const projectOf = async (ctx: RouteContext): Promise<LlmProjectRef> => {
    const project = await llm.project(ctx.params.project);
    if (!project) throw projectNotFound(ctx.params.project);
    return project;
  };

  const check = (def: DefinitionInput): void => {
    const problem = definitionProblem(def, new Set(deps.providers().map((p) => p.name)));
    if (problem) {
      throw httpError(problem.provider ? EvaluatorsErrors.PROVIDER : EvaluatorsErrors.DEFINITION, `${problem.path.join('.')}: ${problem.message}`);
    }
  };

  /** The trace to try a definition on: the one asked for, else the latest in its scope, else a built-in sample. */
  const trialTrace = async (project: LlmProjectRef, def: DefinitionInput, traceId: unknown): Promise<PersistedTrace> => {
    if (typeof traceId === 'string') {
      const trace = await llm.trace(project.id, traceId.toLowerCase());
      if (!trace) throw httpError(EvaluatorsErrors.TRACE_NOT_FOUND, `the project has no stored trace ${JSON.stringify(traceId)}`);
      return trace;
    }
    const [latest] = await llm.recentTraces(project.id, { ...(def.template ? { template: def.template } : {}), limit: 1 });
    return latest ?? sampleTrace(project.id);
  };

  const asDefinition = (project: LlmProjectRef, def: DefinitionInput): EvalDefinition => ({
    id: def.id ?? 'trial', project_id: project.id, name: def.name, type: def.type, sample_rate: def.sample_rate ?? 1, template: def.template ?? null,
    versions: def.versions ?? null, on_missing_output: def.on_missing_output ?? 'skip', settings: def.settings, source: 'store', created_at: Date.now(), updated_at: Date.now(),
  });

  const trial = async (definition: EvalDefinition, trace: PersistedTrace) => {
    // The one-time preparation (embeddings) is reported apart: it is not the eval's latency.
    const preparing = performance.now();
    await deps.prepare?.(definition);
    const started = performance.now();
    let outcome: EvalOutcome;
    try {
      outcome = await deps.evaluate(definition, trace);
    } catch (err) {
      throw httpError(EvaluatorsErrors.PROVIDER_UNAVAILABLE, `the trial could not run: ${(err as Error).message}`);
    }
    const isSample = trace.id === sampleTrace(definition.project_id).id;
    return {
      trace_id: isSample ? null : trace.id, sample_trace: isSample, status: outcome.status, score: outcome.score, reason: outcome.reason,
      method: outcome.method, model: outcome.model, cost: { tokens_in: outcome.tokens_in, tokens_out: outcome.tokens_out, usd: outcome.usd },
      latency_ms: Math.round((performance.now() - started) * 1000) / 1000, preparation_ms: Math.round(started - preparing),
      details: outcome.details ?? null,
    };
  };

  /**
   * A custom function must compile and score the trial trace before it is saved. A trial trace without output that
   * the definition would skip tells nothing of the function: the sample trace, which has an answer, stands in.
   */
  const validate = async (project: LlmProjectRef, def: DefinitionInput, traceId: unknown) => {
    if (def.type !== 'custom_function') return undefined;
    const definition = asDefinition(project, def);
    const trace = await trialTrace(project, def, traceId);
    const result = await trial(definition, skips(definition, trace) ? sampleTrace(project.id) : trace);
    if (result.status !== 'ok') {
      const on = result.trace_id ? `trace ${result.trace_id}` : 'the sample trace';
      throw httpError(EvaluatorsErrors.FUNCTION, `settings.source: the function was refused: on ${on} it failed with ${result.reason}`);
    }
    return result;
  };

  const describe = (def: EvalDefinition, stats?: DefinitionStats) => ({
    id: def.id, name: def.name, type: def.type, sample_rate: def.sample_rate, template: def.template, versions: def.versions,
    on_missing_output: def.on_missing_output, settings: def.settings, source: def.source, rate_per_minute: deps.ratePerMinute(def.project_id),
    created_at: iso(def.created_at), updated_at: iso(def.updated_at),
    stats: {
      results: stats?.results ?? 0, failed: stats?.failed ?? 0, skipped: stats?.skipped ?? 0, avg_score: stats?.avg_score ?? null, method: stats?.method ?? null,
      cost_usd: stats?.cost_usd ?? 0, last_result_at: iso(stats?.last_at ?? null),
    },
  });

  http.route({
    method: 'GET', path: '/api/llm/eval-providers', tags: ['evaluators'],
    summary: 'Judge providers declared in evaluators.providers, for llm_judge definitions (names, URLs and models; never keys)',
    response: providersSchema,
    handler: () => ({ data: deps.providers() }),
  });

  http.route({
    method: 'GET', path: '/api/llm/embeddings/status', tags: ['evaluators'],
    summary: 'Where the embedder\'s one-time preparation stands (semantic_similarity): idle, preparing (with its step and progress), ready or failed',
    response: {
      type: 'object', additionalProperties: false, required: ['state', 'step', 'progress', 'elapsed_ms', 'method', 'reason'],
      properties: {
        state: { enum: ['idle', 'preparing', 'ready', 'failed'] },
        step: { enum: ['module', 'converting', 'loading', null] },
        progress: { type: ['number', 'null'], minimum: 0, maximum: 1 },
        elapsed_ms: { type: ['number', 'null'] },
        method: { type: ['string', 'null'] },
        reason: { type: ['string', 'null'] },
      },
    },
    handler: (): EmbedderStatus => deps.embedderStatus?.() ?? { state: 'idle', step: null, progress: null, elapsed_ms: null, method: null, reason: null },
  });

  http.route({
    method: 'GET', path: '/api/llm/projects/:project/evals', tags: ['evaluators'],
    summary: 'A project\'s eval definitions, each with its rate, results, failures, average score and cost so far',
    response: definitionListSchema,
    async handler(ctx) {
      const project = await projectOf(ctx);
      const [list, stats] = await Promise.all([definitions.list(project.id), results.perDefinition(project.id)]);
      return { data: list.map((d) => describe(d, stats.get(d.id))) };
    },
  });

  http.route({
    method: 'GET', path: '/api/llm/projects/:project/evals/:id', tags: ['evaluators'],
    summary: 'One eval definition with its stats',
    response: definitionViewSchema,
    async handler(ctx) {
      const project = await projectOf(ctx);
      const def = await definitions.mustGet(project.id, ctx.params.id);
      return describe(def, (await results.perDefinition(project.id)).get(def.id));
    },
  });

  http.route({
    method: 'POST', path: '/api/llm/projects/:project/evals', status: 201, role: 'member', tags: ['evaluators'],
    summary: 'Create an eval definition; a custom_function is compiled and tried on a trace first, and the trial is in the answer',
    response: savedDefinitionSchema,
    query: traceQuery, body: definitionSchema,
    async handler(ctx) {
      const project = await projectOf(ctx);
      const input = ctx.request.body as DefinitionInput;
      check(input);
      const validation = await validate(project, input, ctx.query.trace_id);
      const def = await definitions.create(project.id, input);
      return { definition: describe(def), validation: validation ?? null };
    },
  });

  http.route({
    method: 'POST', path: '/api/llm/projects/:project/evals/test', role: 'member', tags: ['evaluators'],
    summary: 'Try a definition on a trace without saving it (a judge is called, and costs what it costs)',
    response: trialSchema,
    query: traceQuery, body: definitionSchema,
    async handler(ctx) {
      const project = await projectOf(ctx);
      const input = ctx.request.body as DefinitionInput;
      check(input);
      const def = asDefinition(project, input);
      return trial(def, await trialTrace(project, input, ctx.query.trace_id));
    },
  });

  http.route({
    method: 'PUT', path: '/api/llm/projects/:project/evals/:id', role: 'member', tags: ['evaluators'],
    summary: 'Replace an eval definition (not one the config file declares); a custom_function is tried first',
    response: savedDefinitionSchema,
    query: traceQuery, body: definitionSchema,
    async handler(ctx) {
      const project = await projectOf(ctx);
      const input = ctx.request.body as DefinitionInput;
      if (input.id !== undefined && input.id !== ctx.params.id) {
        throw httpError(EvaluatorsErrors.DEFINITION, `id: the body says "${input.id}" but the path says "${ctx.params.id}"; ids do not change`);
      }
      check(input);
      const current = await definitions.mustGet(project.id, ctx.params.id);
      if (current.source === 'config') throw definitionFromConfig(current.id, 'change it');
      const validation = await validate(project, input, ctx.query.trace_id);
      const def = await definitions.replace(project.id, ctx.params.id, input);
      return { definition: describe(def, (await results.perDefinition(project.id)).get(def.id)), validation: validation ?? null };
    },
  });

  http.route({
    method: 'DELETE', path: '/api/llm/projects/:project/evals/:id', tags: ['evaluators'],
    summary: 'Delete an eval definition and its results (not one the config file declares)',
    response: deletedDefinitionSchema,
    query: { type: 'object', properties: {} },
    async handler(ctx) {
      const project = await projectOf(ctx);
      await definitions.delete(project.id, ctx.params.id);
      const deleted = await results.deleteForDefinition({ project_id: project.id, id: ctx.params.id });
      return { deleted: ctx.params.id, results: deleted };
    },
  });

  http.route({
    method: 'POST', path: '/api/llm/projects/:project/evals/:id/rerun', role: 'member', tags: ['evaluators'],
    summary: 'Run this definition over the last N traces (of its template, or the one named), sampling aside; each replaces an earlier result',
    response: rerunSchema,
    body: {
      type: 'object', additionalProperties: false,
      properties: {
        last: { type: 'integer', minimum: 1, maximum: MAX_RERUN, default: 100, description: 'How many of the newest traces.' },
        template: { type: 'string', minLength: 1, description: 'Default: the definition\'s template (all traces when it has none).' },
      },
    },
    async handler(ctx) {
      const project = await projectOf(ctx);
      const def = await definitions.mustGet(project.id, ctx.params.id);
      const body = (ctx.request.body ?? {}) as { last?: number; template?: string };
      const template = body.template ?? def.template ?? undefined;
      // Ids, templates and versions are all a rerun needs: the traces' content is read by each eval job.
      const traces = await llm.recentTraces(project.id, { ...(template !== undefined ? { template } : {}), limit: body.last ?? 100, withoutContent: true });
      const enqueued = await deps.enqueuer.rerun(def, traces);
      return { eval_definition_id: def.id, template: template ?? null, traces: traces.length, enqueued, rate_per_minute: deps.ratePerMinute(project.id) };
    },
  });
}
