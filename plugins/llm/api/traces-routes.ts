import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { getTraceJson, TRACE_LIST_DESCRIPTION, jsonBody, listTraces, traceListQuery, tracePageJson } from './traces-query.js';
import { tracePageSchema, traceSchema } from './schemas.js';

export function registerTraceRoutes(http: HttpRoutes, store: Store): void {
  http.route({
    method: 'GET', path: '/api/v1/traces', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Recent traces of the key\'s project, newest first, each with its prompt template and version',
    response: tracePageSchema,
    query: traceListQuery,
    description: TRACE_LIST_DESCRIPTION,
    handler: async (ctx) => tracePageJson(await listTraces(store, projectOf(ctx).id, ctx.query), ctx),
  });
  http.route({
    method: 'GET', path: '/api/v1/traces/:id', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'One trace of the key\'s project',
    response: traceSchema,
    handler: async (ctx) => jsonBody(await getTraceJson(store, projectOf(ctx).id, ctx.params.id), ctx),
  });
}
