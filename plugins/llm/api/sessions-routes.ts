import type { HttpRoutes, RouteContext, Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { filterText } from './query-params.js';
import { sessionPageSchema, sessionReplaySchema, userDetailSchema, userPageSchema } from './session-schemas.js';
import { listSessions, SESSION_DESCRIPTION, sessionReplay, sessionTurnsQuery } from './sessions-query.js';
import { GROUP_LIST_DESCRIPTION, groupListQuery } from './trace-groups.js';
import { listUsers, userDetail, USERS_DESCRIPTION } from './users-query.js';

const sessionListQuery = groupListQuery('turns', { user_id: filterText(256, 'Only this user\'s sessions.') });
const userListQuery = groupListQuery('requests');
const userRangeQuery = { type: 'object', properties: { since: userListQuery.properties.since, until: userListQuery.properties.until } };

/**
 * Sessions (traces grouped by `session_id`, replayed in order) and users (by `user_id`, with eval scores), for the
 * public API (the key's project) and the dashboard (the project named in the path): each pair runs one query function.
 */
export function registerSessionRoutes(http: HttpRoutes, store: Store, scores: EvalScores, dashboardProject: (ctx: RouteContext) => Promise<string>): void {
  const variants = [
    { base: '/api/v1', auth: { auth: PROJECT_KEY_SCHEME }, project: async (ctx: RouteContext) => projectOf(ctx).id, of: 'the key\'s project' },
    { base: '/api/llm/projects/:project', auth: {}, project: dashboardProject, of: 'a project' },
  ];
  for (const v of variants) {
    http.route({
      method: 'GET', path: `${v.base}/sessions`, tags: ['llm'], ...v.auth,
      summary: `The sessions of ${v.of} (traces grouped by session_id): turns, cost, latency, errors`,
      description: GROUP_LIST_DESCRIPTION,
      query: sessionListQuery,
      response: sessionPageSchema,
      handler: async (ctx) => listSessions(store, await v.project(ctx), ctx.query),
    });
    http.route({
      method: 'GET', path: `${v.base}/sessions/:session`, tags: ['llm'], ...v.auth,
      summary: `One session of ${v.of}, replayed: its turns in order with cost and latency`,
      description: SESSION_DESCRIPTION,
      query: sessionTurnsQuery,
      response: sessionReplaySchema,
      handler: async (ctx) => sessionReplay(store, await v.project(ctx), ctx.params.session, ctx.query, ctx),
    });
    http.route({
      method: 'GET', path: `${v.base}/users`, tags: ['llm'], ...v.auth,
      summary: `The users of ${v.of} (traces grouped by user_id): requests, sessions, cost, errors, eval scores`,
      description: `${GROUP_LIST_DESCRIPTION} ${USERS_DESCRIPTION}`,
      query: userListQuery,
      response: userPageSchema,
      handler: async (ctx) => listUsers(store, scores, await v.project(ctx), ctx.query),
    });
    http.route({
      method: 'GET', path: `${v.base}/users/:user`, tags: ['llm'], ...v.auth,
      summary: `One user of ${v.of}: figures and eval scores by definition over a range`,
      description: `${USERS_DESCRIPTION} Their sessions and traces are the lists with \`user_id\`.`,
      query: userRangeQuery,
      response: userDetailSchema,
      handler: async (ctx) => userDetail(store, scores, await v.project(ctx), ctx.params.user, ctx.query),
    });
  }
}
