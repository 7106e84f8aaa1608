import { httpError, type AuthPrincipal, type DashboardUser, type JsonSchema } from '@vigil/plugin-sdk';
import type { AuditLog } from '../auth/audit-log.js';
import { hashPassword, newPassword } from '../auth/password-kdf.js';
import { PROJECT_ROLES, ROLES, type ProjectRole, type Role } from '../auth/roles.js';
import type { UserDirectory } from '../auth/user-directory.js';
import { GRANTS_PER_USER_LIMIT, USER_LIST_LIMIT, type User, type UserTable } from '../auth/user-table.js';
import type { DashboardSessions } from './dashboard-sessions.js';
import { HttpErrors } from './errors.js';
import { CONTROL_PLANE_OWNER, type RouteTable } from './route-table.js';

export const USERS_PATH = '/api/users';
/** Characters of a project name in a grant (the LLM plugin's names are shorter). */
const PROJECT_CHARS = 128;

const instanceRole: JsonSchema = { enum: [...ROLES, null], description: 'The role on the instance and in every project; null: none.' };
const projectsSchema: JsonSchema = {
  type: 'object', maxProperties: GRANTS_PER_USER_LIMIT, propertyNames: { minLength: 1, maxLength: PROJECT_CHARS },
  additionalProperties: { enum: [...PROJECT_ROLES] }, description: 'Role per LLM project; it can only raise the instance role there.',
};

const userSchema: JsonSchema = {
  title: 'DashboardUserRecord',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'email', 'name', 'source', 'instance_role', 'projects', 'disabled', 'created_at', 'last_login_at'],
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    name: { type: ['string', 'null'] },
    source: { enum: ['oidc', 'local'], description: 'oidc: signs in with single sign-on; local: with a password.' },
    instance_role: instanceRole,
    projects: { type: 'object', additionalProperties: { enum: [...PROJECT_ROLES] }, description: 'Role per LLM project.' },
    disabled: { type: 'boolean' },
    created_at: { type: 'integer', description: 'Epoch ms.' },
    last_login_at: { type: ['integer', 'null'], description: 'Epoch ms of the last sign-in, or null.' },
  },
};

const created: JsonSchema = {
  title: 'CreatedUser', type: 'object', additionalProperties: false, required: ['user', 'password'],
  properties: {
    user: userSchema,
    password: { type: ['string', 'null'], description: 'A local user\'s first password, shown this once (null for OIDC users).' },
  },
};

const shown = (u: User) => ({
  id: u.id, email: u.email, name: u.name, source: u.source, instance_role: u.grants.instance, projects: u.grants.projects,
  disabled: u.disabled, created_at: u.createdAt, last_login_at: u.lastLoginAt,
});

export interface UserRouteOptions {
  users: UserTable;
  directory: UserDirectory;
  sessions: DashboardSessions;
  audit: AuditLog;
}

const EMAIL = '^[^@\\s]+@[^@\\s]+$';

/**
 * Users and their roles, for the owner (Settings > Users): list, invite, change roles, disable, reset a local user's
 * password, end a user's sessions. Every change is audited by the request pipeline; `GET /api/me` is for everyone.
 */
export function registerUserRoutes(table: RouteTable, o: UserRouteOptions): void {
  const found = async (id: string): Promise<User> => {
    const user = await o.users.byId(id);
    if (!user) throw httpError(HttpErrors.USER_NOT_FOUND, `no dashboard user has the id ${JSON.stringify(id.slice(0, 64))}; GET ${USERS_PATH} lists them`);
    return user;
  };

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: '/api/me',
    role: 'signed-in',
    summary: 'Who the caller is, and their roles',
    description: 'The dashboard token is the owner with no email. The UI shows and hides actions by these roles; the server checks them anyway.',
    tags: ['auth'],
    response: {
      title: 'CurrentUser', type: 'object', additionalProperties: false, required: ['id', 'email', 'instance_role', 'projects'],
      properties: { id: { type: ['string', 'null'] }, email: { type: ['string', 'null'] }, instance_role: instanceRole, projects: { type: 'object', additionalProperties: { enum: [...PROJECT_ROLES] } } },
    },
    handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      const user = (ctx.state.auth as AuthPrincipal | undefined)?.user as DashboardUser;
      return { id: user.id, email: user.email, instance_role: user.instanceRole, projects: user.projects };
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: USERS_PATH,
    role: 'owner',
    summary: 'The dashboard users and their roles',
    description: `By email, at most ${USER_LIST_LIMIT}; \`total\` counts every user.`,
    tags: ['auth'],
    response: {
      title: 'DashboardUserList', type: 'object', additionalProperties: false, required: ['users', 'total'],
      properties: { users: { type: 'array', items: userSchema }, total: { type: 'integer', minimum: 0 } },
    },
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      const { users, total } = await o.users.list();
      return { users: users.map(shown), total };
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'POST',
    path: USERS_PATH,
    summary: 'Invites a user: a local one gets a first password, shown once; an OIDC one signs in with single sign-on',
    tags: ['auth'],
    status: 201,
    body: {
      type: 'object', additionalProperties: false, required: ['email', 'source'],
      properties: {
        email: { type: 'string', pattern: EMAIL, maxLength: 254 },
        name: { type: 'string', maxLength: 200 },
        source: { enum: ['local', 'oidc'] },
        instance_role: { ...instanceRole, default: null },
        projects: { ...projectsSchema, default: {} },
      },
    },
    response: created,
    async handler(ctx) {
      const b = ctx.request.body as { email: string; name?: string; source: 'local' | 'oidc'; instance_role: Role | null; projects: Record<string, ProjectRole> };
      const password = b.source === 'local' ? newPassword() : null;
      const user = await o.users.create({
        email: b.email, name: b.name ?? null, source: b.source, instanceRole: b.instance_role,
        passwordHash: password === null ? null : await hashPassword(password),
      });
      if (!user) throw httpError(HttpErrors.USER_EXISTS, `a user with the email ${b.email.toLowerCase()} exists already`);
      for (const [project, role] of Object.entries(b.projects)) await o.users.setProjectRole(user.id, project, role);
      return { user: shown(await found(user.id)), password };
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'PATCH',
    path: `${USERS_PATH}/:id`,
    summary: 'Changes a user\'s roles, or disables (ending their sessions) or enables them',
    description: 'In `projects`, a role sets the grant and null removes it. Takes effect at once in this process and within 2 s in others.',
    tags: ['auth'],
    body: {
      type: 'object', additionalProperties: false, minProperties: 1,
      properties: {
        instance_role: instanceRole,
        projects: { ...projectsSchema, additionalProperties: { enum: [...PROJECT_ROLES, null] } },
        disabled: { type: 'boolean' },
      },
    },
    response: userSchema,
    async handler(ctx) {
      const user = await found(ctx.params.id);
      const b = ctx.request.body as { instance_role?: Role | null; projects?: Record<string, ProjectRole | null>; disabled?: boolean };
      const grants = Object.entries(b.projects ?? {});
      const adding = grants.filter(([p, r]) => r !== null && !Object.hasOwn(user.grants.projects, p)).length;
      if (Object.keys(user.grants.projects).length + adding > GRANTS_PER_USER_LIMIT) {
        throw httpError(HttpErrors.INVALID_BODY, `a user holds at most ${GRANTS_PER_USER_LIMIT} project grants`);
      }
      if (b.instance_role !== undefined) await o.users.setInstanceRole(user.id, b.instance_role);
      for (const [project, role] of grants) await o.users.setProjectRole(user.id, project, role);
      if (b.disabled !== undefined) await o.users.setDisabled(user.id, b.disabled);
      o.directory.forget(user.id);
      if (b.disabled === true) await o.sessions.endForUser(user.id, 'user_disabled');
      return shown(await found(user.id));
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'POST',
    path: `${USERS_PATH}/:id/password`,
    summary: 'Gives a local user a new password, shown once, and ends their sessions',
    tags: ['auth'],
    response: { title: 'NewPassword', type: 'object', additionalProperties: false, required: ['password'], properties: { password: { type: 'string' } } },
    async handler(ctx) {
      const user = await found(ctx.params.id);
      if (user.source !== 'local') throw httpError(HttpErrors.USER_NOT_LOCAL, `${user.email} signs in with single sign-on and has no password here`);
      const password = newPassword();
      await o.users.setPasswordHash(user.id, await hashPassword(password));
      await o.sessions.endForUser(user.id);
      return { password };
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'DELETE',
    path: `${USERS_PATH}/:id/sessions`,
    // An instance admin may end someone's sessions (a lost laptop, a leaver) without the power to change users.
    role: 'admin',
    summary: 'Ends every session of a user',
    description: 'At once in this process, and within 2 s in other processes sharing the store.',
    tags: ['auth'],
    response: { title: 'EndedSessions', type: 'object', additionalProperties: false, required: ['ended'], properties: { ended: { type: 'integer', minimum: 0, description: 'Sessions ended by this call.' } } },
    async handler(ctx) {
      const user = await found(ctx.params.id);
      return { ended: await o.sessions.endForUser(user.id) };
    },
  });
}
