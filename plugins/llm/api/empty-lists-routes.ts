import type { HttpRoutes } from '@vigil/plugin-sdk';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { pageOf, pageProperties, parseSince, sinceProperty } from './query-params.js';

/**
 * Alert events: the route, auth and shape exist now; the alerts plugin (the next issue) fills it. Parameters are
 * checked already, so a client written today keeps working.
 */
export function registerEmptyListRoutes(http: HttpRoutes): void {
  http.route({
    method: 'GET', path: '/api/v1/alert-events', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Fired alerts of the key\'s project, with status and delivery state',
    query: { type: 'object', properties: { status: { type: 'string' }, since: sinceProperty, ...pageProperties } },
    handler(ctx) {
      projectOf(ctx);
      if (typeof ctx.query.since === 'string') parseSince(ctx.query.since);
      return { data: [], ...pageOf(ctx.query) };
    },
  });
}
