import { timingSafeEqual } from 'node:crypto';
import { HTML_BODY, NO_BODY } from '@vigil/plugin-sdk';
import type { AuditLog } from '../auth/audit-log.js';
import { SignInError, SIGN_IN_TTL_MS, type OidcRelyingParty } from '../auth/oidc-client.js';
import { decideSignIn, type SignInPolicy } from '../auth/oidc-sign-in.js';
import type { UserDirectory } from '../auth/user-directory.js';
import type { User, UserTable } from '../auth/user-table.js';
import type { DashboardSessions } from './dashboard-sessions.js';
import { page, sameSiteTarget, type LoginRouteOptions } from './dashboard-login.js';
import { signedInPage } from './login-page.js';
import { OIDC_CALLBACK_PATH, OIDC_LOGIN_PATH } from './login-paths.js';
import { CONTROL_PLANE_OWNER, type RouteTable } from './route-table.js';
import { readCookies, sessionSetCookie } from './session-cookie.js';

/** Carries the sign-in's state from the start to the callback in this browser only (SameSite=Lax: the callback is a navigation from the provider). */
const STATE_COOKIE = 'vigil_oidc';

export interface OidcRouteOptions {
  rp: OidcRelyingParty;
  policy: SignInPolicy;
  users: UserTable;
  directory: UserDirectory;
  sessions: DashboardSessions;
  audit: AuditLog;
  secure: boolean;
  login: LoginRouteOptions;
}

const stateCookie = (value: string, maxAge: number, secure: boolean): string =>
  `${STATE_COOKIE}=${value}; Max-Age=${maxAge}; Path=/auth/oidc; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

const sameText = (a: string, b: string): boolean => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Single sign-on: `GET /auth/oidc/login` sends the browser to the provider, `GET /auth/oidc/callback` takes its
 * answer. The callback comes from the provider's site, so it is `auth: none` and accepted cross-site: what binds it
 * to this browser is the state in the Lax cookie, and what makes it a sign-in is openid-client's checks.
 */
export function registerOidcRoutes(table: RouteTable, o: OidcRouteOptions): void {
  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: OIDC_LOGIN_PATH,
    auth: 'none',
    summary: 'Starts a single sign-on at the identity provider (302 there)',
    description: 'Keeps the sign-in\'s state, nonce and PKCE verifier for 10 minutes (at most 10,000 under way) and sends the browser to the provider.',
    tags: ['auth'],
    query: { type: 'object', properties: { next: { type: 'string', maxLength: 2048, description: 'Path to open after signing in.' } } },
    responses: { 302: NO_BODY, 503: HTML_BODY },
    async handler(ctx) {
      const next = sameSiteTarget(ctx.query.next);
      let started;
      try {
        started = await o.rp.start(next);
      } catch (err) {
        const why = err instanceof SignInError ? err.message : `the identity provider cannot be reached (${(err as Error).message})`;
        return page(ctx, 503, next, o.login, `Single sign-on is unavailable: ${why}. Log in with the dashboard token meanwhile.`);
      }
      ctx.set('Set-Cookie', stateCookie(started.state, Math.floor(SIGN_IN_TTL_MS / 1000), o.secure));
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Location', started.url.href);
      ctx.status = 302;
      ctx.body = '';
      return undefined;
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: OIDC_CALLBACK_PATH,
    auth: 'none',
    summary: 'Where the identity provider sends the browser back: finishes the sign-in',
    description: 'Answers a page that opens the dashboard with the session cookie set, or the login form with what failed ' +
      '(403). Every outcome is in the audit log.',
    tags: ['auth'],
    responses: { 200: HTML_BODY, 403: HTML_BODY },
    async handler(ctx) {
      const query = ctx.url.includes('?') ? ctx.url.slice(ctx.url.indexOf('?') + 1) : '';
      const params = new URLSearchParams(query);
      const state = params.get('state') ?? '';
      const refuse = async (reason: string, claimed = 'unknown', actorId: string | null = null): Promise<Buffer> => {
        await o.audit.write({ actorId, actor: claimed, action: 'sign-in refused', target: 'oidc', project: null, status: 403, address: ctx.ip, detail: reason });
        ctx.set('Set-Cookie', stateCookie('', 0, o.secure));
        return page(ctx, 403, '/', o.login, `Single sign-on failed: ${reason}.`);
      };
      // The state must be the one this browser started with: a sign-in started elsewhere (login CSRF) stops here.
      const started = readCookies(ctx.headers.cookie, STATE_COOKIE);
      if (state === '' || !started.some((v) => sameText(v, state))) {
        return refuse('the answer does not belong to a sign-in started in this browser; start again');
      }
      let finished;
      try {
        finished = await o.rp.finish(state, query);
      } catch (err) {
        return refuse(err instanceof SignInError ? err.message : `the identity provider cannot be reached (${(err as Error).message})`);
      }
      const decision = decideSignIn(finished.claims, o.policy);
      const claimed = typeof finished.claims.email === 'string' ? finished.claims.email.slice(0, 200) : String(finished.claims.sub);
      if (!decision.ok) return refuse(decision.reason, claimed);
      const subject = `${String(finished.claims.iss)} ${String(finished.claims.sub)}`;
      const user = await upsertUser(o, subject, decision);
      if (typeof user === 'string') return refuse(user, claimed);
      if (user.disabled) return refuse(`${user.email} is disabled on this instance`, user.email, user.id);
      o.directory.forget(user.id);
      const value = await o.sessions.start({ userAgent: ctx.headers['user-agent'], address: ctx.ip }, user.id);
      await o.audit.write({ actorId: user.id, actor: user.email, action: 'sign-in', target: 'oidc', project: null, status: 200, address: ctx.ip, detail: null });
      ctx.set('Set-Cookie', [sessionSetCookie(value, o.sessions.cookieMaxAgeSeconds, o.secure), stateCookie('', 0, o.secure)]);
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.type = 'text/html; charset=utf-8';
      ctx.status = 200;
      return signedInPage(finished.next, o.login.stylesheet());
    },
  });
}

/**
 * The user of a verified sign-in: found by the provider's subject, else by email (an owner invited them), else made.
 * The roles the claims map to are applied at every sign-in; a new user whom they give no instance role gets the
 * default. Resolves with the user, or with why not.
 */
async function upsertUser(o: OidcRouteOptions, subject: string, d: Extract<ReturnType<typeof decideSignIn>, { ok: true }>): Promise<User | string> {
  let user = await o.users.bySubject(subject) ?? await o.users.byEmail(d.email);
  if (user && user.source !== 'oidc') return `${d.email} is a local user here, who logs in with a password`;
  if (user && user.oidcSubject !== null && user.oidcSubject !== subject) return `${d.email} is bound to another account at the identity provider`;
  if (!user) {
    user = await o.users.create({ email: d.email, name: d.name, source: 'oidc', oidcSubject: subject, instanceRole: d.instanceRole ?? o.policy.defaultRole });
    if (!user) return `${d.email} could not be recorded (signed in twice at once?); try again`;
  } else if (d.instanceRole !== null && d.instanceRole !== user.grants.instance) {
    await o.users.setInstanceRole(user.id, d.instanceRole);
  }
  for (const [project, role] of Object.entries(d.projectRoles)) await o.users.setProjectRole(user.id, project, role);
  await o.users.recordSignIn(user.id, { oidcSubject: subject, name: d.name });
  return (await o.users.byId(user.id)) ?? `${d.email} vanished while signing in`;
}

