import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { pageOf, pageProperties } from './query-params.js';
import { listTemplates, versionDetail, versionQuery } from './templates-query.js';

export function registerTemplateRoutes(http: HttpRoutes, store: Store): void {
  http.route({
    method: 'GET', path: '/api/v1/prompt-templates', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Prompt templates of the key\'s project, each version with its stats (requests, eval score, p95, error rate, cost, first and last seen)',
    query: { type: 'object', properties: { ...pageProperties } },
    handler: (ctx) => listTemplates(store, projectOf(ctx).id, pageOf(ctx.query)),
  });
  http.route({
    method: 'GET', path: '/api/v1/prompt-templates/:name/versions/:n', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'One prompt version: its normalised text, its stats, and a unified diff against the version before it (or `against`)',
    query: versionQuery,
    handler: (ctx) => versionDetail(store, projectOf(ctx).id, ctx.params.name, ctx.params.n, ctx.query.against === undefined ? undefined : Number(ctx.query.against)),
  });
}
