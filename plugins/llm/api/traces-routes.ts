import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { getTrace, listTraces, traceListQuery } from './traces-query.js';

export function registerTraceRoutes(http: HttpRoutes, store: Store): void {
  http.route({
    method: 'GET', path: '/api/v1/traces', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Recent traces of the key\'s project, newest first, each with its prompt template and version',
    query: traceListQuery,
    handler: (ctx) => listTraces(store, projectOf(ctx).id, ctx.query),
  });
  http.route({
    method: 'GET', path: '/api/v1/traces/:id', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'One trace of the key\'s project',
    handler: (ctx) => getTrace(store, projectOf(ctx).id, ctx.params.id),
  });
}
