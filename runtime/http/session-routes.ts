import { httpError, type AuthPrincipal, type RouteContext } from '@vigil/plugin-sdk';
import { sessionHandleOf } from './authentication.js';
import { SESSION_LIST_LIMIT, type DashboardSessions } from './dashboard-sessions.js';
import { HttpErrors } from './errors.js';
import { CONTROL_PLANE_OWNER, type RouteTable } from './route-table.js';
import type { SessionRow } from './session-backend.js';
import { clearSessionCookie } from './session-cookie.js';

export const SESSIONS_PATH = '/api/sessions';
const HANDLE = /^[0-9a-f]{16}$/;

const ended = { title: 'EndedSessions', type: 'object', additionalProperties: false, required: ['ended'], properties: { ended: { type: 'integer', minimum: 0, description: 'Sessions ended by this call.' } } };

const sessionSchema = {
  title: 'DashboardSession',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'current', 'user_id', 'created_at', 'last_seen_at', 'expires_at', 'idle_expires_at', 'user_agent', 'client_address'],
  properties: {
    id: { type: 'string', pattern: HANDLE.source, description: 'What the session is ended by (DELETE /api/sessions/{id}). Not the cookie, and not usable as one.' },
    current: { type: 'boolean', description: 'Whether this is the session of the request that asked.' },
    user_id: { type: ['string', 'null'], description: 'The user signed in (GET /api/users); null for a login with the dashboard token.' },
    created_at: { type: 'integer', description: 'Epoch ms of the login.' },
    last_seen_at: { type: 'integer', description: 'Epoch ms of the last request, to within a minute.' },
    expires_at: { type: 'integer', description: 'Epoch ms of the absolute end (control_plane.session.lifetime after the login).' },
    idle_expires_at: { type: 'integer', description: 'Epoch ms at which it ends unless used (control_plane.session.idle_timeout after last_seen_at).' },
    user_agent: { type: ['string', 'null'], description: 'The browser\'s User-Agent at login (first 256 characters).' },
    client_address: { type: ['string', 'null'], description: 'The client address the login came from.' },
  },
};

/** The caller's session handle, or null when it authenticated otherwise (the bearer token). */
const callerHandle = (ctx: RouteContext): string | null => sessionHandleOf(ctx.state.auth as AuthPrincipal | undefined);

const listed = (row: SessionRow, current: string | null, idleMs: number) => ({
  id: row.handle,
  current: row.handle === current,
  user_id: row.userId,
  created_at: row.createdAt,
  last_seen_at: row.lastSeenAt,
  expires_at: row.expiresAt,
  idle_expires_at: Math.min(row.expiresAt, row.lastSeenAt + idleMs),
  user_agent: row.userAgent,
  client_address: row.clientAddress,
});

/**
 * The open dashboard sessions, for whoever holds the dashboard token (the owner): list them, end one, end all but
 * one's own. Writes with the session cookie need the same-origin proof like every write (authentication.ts).
 */
export function registerSessionRoutes(table: RouteTable, o: { sessions: DashboardSessions; secure: boolean }): void {
  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: SESSIONS_PATH,
    // Sessions name everyone's addresses and browsers: the owner's to see.
    role: 'owner',
    summary: 'The open dashboard sessions',
    description: `Most recently used first, at most ${SESSION_LIST_LIMIT}; \`total\` counts every open session. Ids name sessions here ` +
      'and cannot be used as cookies.',
    tags: ['auth'],
    response: {
      title: 'DashboardSessionList', type: 'object', additionalProperties: false, required: ['sessions', 'total'],
      properties: { sessions: { type: 'array', items: sessionSchema }, total: { type: 'integer', minimum: 0 } },
    },
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      const { rows, total } = await o.sessions.list();
      const current = callerHandle(ctx);
      return { sessions: rows.map((r) => listed(r, current, o.sessions.policy.idleMs)), total };
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'DELETE',
    path: `${SESSIONS_PATH}/:id`,
    summary: 'Ends one dashboard session',
    description: 'At once in this process, and within 2 s in other processes sharing the store. Ending one\'s own session ' +
      'also clears its cookie. 404 when no open session has this id.',
    tags: ['auth'],
    response: ended,
    async handler(ctx) {
      const id = ctx.params.id;
      const count = HANDLE.test(id) ? await o.sessions.endByHandle(id) : 0;
      if (count === 0) {
        throw httpError(HttpErrors.SESSION_NOT_FOUND, `no open dashboard session has the id ${JSON.stringify(id.slice(0, 64))}; GET ${SESSIONS_PATH} lists them`);
      }
      if (id === callerHandle(ctx)) ctx.set('Set-Cookie', clearSessionCookie(o.secure));
      return { ended: count };
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'DELETE',
    path: SESSIONS_PATH,
    summary: 'Ends every dashboard session but the caller\'s (or every one)',
    description: 'With `include_current=true` the caller\'s own session ends too, and its cookie is cleared. Called with the ' +
      'bearer token, which has no session, it ends every session.',
    tags: ['auth'],
    query: {
      type: 'object', additionalProperties: false,
      properties: { include_current: { type: 'boolean', default: false, description: 'End the caller\'s session too.' } },
    },
    response: ended,
    async handler(ctx) {
      const current = callerHandle(ctx);
      const all = ctx.query.include_current === true;
      const count = await o.sessions.endAll(all ? null : current);
      if (all && current !== null) ctx.set('Set-Cookie', clearSessionCookie(o.secure));
      return { ended: count };
    },
  });
}
