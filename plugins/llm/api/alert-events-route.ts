import type { HttpRoutes } from '@vigil/plugin-sdk';
import type { AlertEvents } from '../alert-events.js';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { pageOf, pageProperties, parseSince, sinceProperty } from './query-params.js';
import { alertEventPageSchema } from './schemas.js';

/** Fired alerts of the key's project, read from the alerts plugin's events (empty while it is off). */
export function registerAlertEventsRoute(http: HttpRoutes, alerts: AlertEvents): void {
  http.route({
    method: 'GET', path: '/api/v1/alert-events', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Fired alerts of the key\'s project, with status and delivery state',
    query: { type: 'object', properties: { status: { enum: ['firing', 'resolved'] }, since: sinceProperty, ...pageProperties } },
    response: alertEventPageSchema,
    async handler(ctx) {
      const project = projectOf(ctx);
      const since = typeof ctx.query.since === 'string' ? parseSince(ctx.query.since) : undefined;
      const page = pageOf(ctx.query);
      const status = ctx.query.status as 'firing' | 'resolved' | undefined;
      const data = await alerts.events(project.name, { ...page, ...(status ? { status } : {}), ...(since !== undefined ? { since } : {}) });
      return { data, ...page };
    },
  });
}
