import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { pageOf } from './query-params.js';
import { listTemplates, templateListQuery, VERSION_DESCRIPTION, versionDetail, versionQuery, versionText } from './templates-query.js';
import { templatePageSchema, versionSchema, versionTextBody } from './schemas.js';

export function registerTemplateRoutes(http: HttpRoutes, store: Store, scores: EvalScores): void {
  http.route({
    method: 'GET', path: '/api/v1/prompt-templates', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Prompt templates of the key\'s project, each version with its stats (requests, eval score, p95, error rate, cost, first and last seen)',
    response: templatePageSchema,
    query: templateListQuery,
    handler: (ctx) => listTemplates(store, scores, projectOf(ctx).id, pageOf(ctx.query), ctx.query.eval_definition_id),
  });
  http.route({
    method: 'GET', path: '/api/v1/prompt-templates/:name/versions/:n', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'One prompt version: its normalised text, its stats (eval scores per definition too), and a unified diff against the version before it (or `against`)',
    description: VERSION_DESCRIPTION,
    query: versionQuery,
    response: versionSchema,
    handler: (ctx) => versionDetail(store, scores, projectOf(ctx).id, ctx.params.name, ctx.params.n, ctx.query),
  });
  http.route({
    method: 'GET', path: '/api/v1/prompt-templates/:name/versions/:n/text', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'One prompt version\'s normalised text, as a text/plain download',
    response: versionTextBody,
    handler: (ctx) => versionText(store, projectOf(ctx).id, ctx.params.name, ctx.params.n, ctx),
  });
}
