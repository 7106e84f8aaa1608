import { httpError, type HttpRoutes, type RouteContext, type Store } from '@vigil/plugin-sdk';
import { LlmErrors, projectNotFound } from '../errors.js';
import type { EvalScores } from '../eval-scores.js';
import type { ProjectStore } from '../project-store.js';
import { gateQuery, gateVerdict } from './gate-query.js';
import { GATE_DESCRIPTION } from './gate-route.js';
import { pageOf } from './query-params.js';
import { registerSessionRoutes } from './sessions-routes.js';
import { projectStats, STATS_DESCRIPTION, statsQuery } from './stats-query.js';
import { listTemplates, templateListQuery, VERSION_DESCRIPTION, versionDetail, versionQuery, versionText } from './templates-query.js';
import { findTraceProject, getTraceJson, jsonBody, listTraces, TRACE_LIST_DESCRIPTION, traceListQuery, tracePageJson } from './traces-query.js';
import { gateSchema, statsSchema, templatePageSchema, tracedProjectSchema, tracePageSchema, traceSchema, versionSchema, versionTextBody } from './schemas.js';

const BASE = '/api/llm/projects/:project';

/**
 * The public API's reads for the dashboard, behind the dashboard token: the page cannot hold project keys, so it names
 * the project in the path. Each route runs the very query function of its `/api/v1` twin with the named project's id,
 * so a project's page shows that project's data only, as a key would; eval scores come from the same source too.
 */
export function registerDashboardApi(http: HttpRoutes, store: Store, projects: ProjectStore, scores: EvalScores): void {
  const projectId = async (ctx: RouteContext): Promise<string> => {
    const row = await projects.get(ctx.params.project);
    if (!row) throw projectNotFound(ctx.params.project);
    return row.id;
  };
  // Sessions and users, with their /api/v1 twins.
  registerSessionRoutes(http, store, scores, projectId);

  http.route({
    method: 'GET', path: `${BASE}/traces`, tags: ['llm'],
    summary: 'A project\'s traces, newest first, filtered and paged as GET /api/v1/traces',
    response: tracePageSchema,
    query: traceListQuery,
    description: TRACE_LIST_DESCRIPTION,
    handler: async (ctx) => tracePageJson(await listTraces(store, await projectId(ctx), ctx.query), ctx),
  });
  http.route({
    method: 'GET', path: `${BASE}/traces/:id`, tags: ['llm'],
    summary: 'One trace of a project, as GET /api/v1/traces/:id',
    response: traceSchema,
    handler: async (ctx) => jsonBody(await getTraceJson(store, await projectId(ctx), ctx.params.id), ctx),
  });
  http.route({
    method: 'GET', path: `${BASE}/prompt-templates`, tags: ['llm'],
    summary: 'A project\'s prompt templates with per-version stats, as GET /api/v1/prompt-templates',
    response: templatePageSchema,
    query: templateListQuery,
    handler: async (ctx) => listTemplates(store, scores, await projectId(ctx), pageOf(ctx.query), ctx.query.eval_definition_id),
  });
  http.route({
    method: 'GET', path: `${BASE}/prompt-templates/:name/versions/:n`, tags: ['llm'],
    summary: 'One prompt version of a project: text, stats, and a unified diff against n−1 or `against`',
    description: VERSION_DESCRIPTION,
    query: versionQuery,
    response: versionSchema,
    handler: async (ctx) => versionDetail(store, scores, await projectId(ctx), ctx.params.name, ctx.params.n, ctx.query,
      (v) => `/api/llm/projects/${encodeURIComponent(ctx.params.project)}/prompt-templates/${encodeURIComponent(ctx.params.name)}/versions/${v}/text`),
  });
  http.route({
    method: 'GET', path: `${BASE}/prompt-templates/:name/versions/:n/text`, tags: ['llm'],
    summary: 'One prompt version\'s normalised text, as a text/plain download (as GET /api/v1/…/versions/:n/text)',
    response: versionTextBody,
    handler: async (ctx) => versionText(store, await projectId(ctx), ctx.params.name, ctx.params.n, ctx),
  });
  http.route({
    method: 'GET', path: `${BASE}/stats`, tags: ['llm'],
    summary: 'A project\'s figures and time series over a range, as GET /api/v1/stats',
    response: statsSchema,
    description: STATS_DESCRIPTION,
    query: statsQuery,
    handler: async (ctx) => projectStats(store, scores, await projectId(ctx), ctx.query),
  });
  http.route({
    method: 'GET', path: `${BASE}/gate`, tags: ['llm'],
    summary: 'The CI gate\'s verdict for a project, as GET /api/v1/gate (what `vigil gate` would print)',
    response: gateSchema,
    description: GATE_DESCRIPTION,
    query: gateQuery,
    handler: async (ctx) => gateVerdict(store, scores, await projectId(ctx), ctx.query),
  });
  http.route({
    method: 'GET', path: '/api/llm/traces/:id', tags: ['llm'],
    summary: 'Which project holds a trace, and the trace: the dashboard\'s search by trace id',
    response: tracedProjectSchema,
    async handler(ctx) {
      const id = ctx.params.id;
      const owner = await findTraceProject(store, id);
      const row = owner === null ? undefined : await projects.getById(owner);
      if (!row) throw httpError(LlmErrors.TRACE_NOT_FOUND, `no project has a stored trace ${JSON.stringify(id)}`);
      return jsonBody(`{"project":${JSON.stringify(row.name)},"trace":${await getTraceJson(store, row.id, id)}}`, ctx);
    },
  });
}
