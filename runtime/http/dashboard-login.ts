import type { IncomingHttpHeaders } from 'node:http';
import { HttpError, httpError, type RouteContext } from '@vigil/plugin-sdk';
import { HTML_BODY, NO_BODY } from '@vigil/plugin-sdk';
import type { Authenticator } from './authentication.js';
import { crossSite, HttpErrors, LockedOutError, sameOriginRequired, unauthorized } from './errors.js';
import type { SiteClassifier } from './request-site.js';
import { CONTROL_PLANE_OWNER, type RouteTable } from './route-table.js';
import type { DashboardSessions } from './dashboard-sessions.js';
import { clearSessionCookie, readCookies, SESSION_COOKIE, sessionSetCookie } from './session-cookie.js';
import { loginPage, signingOutPage } from './login-page.js';
import { LOGIN_FORM_PATH, LOGOUT_FORM_PATH } from './login-paths.js';
import { verifyPassword, hashPassword } from '../auth/password-kdf.js';
import type { UserTable } from '../auth/user-table.js';
import type { AuditLog } from '../auth/audit-log.js';
import type { OidcRelyingParty } from '../auth/oidc-client.js';

export interface LoginRouteOptions {
  authenticator: Authenticator;
  sessions: DashboardSessions;
  sites: SiteClassifier;
  /** Served over TLS: the session cookie gets `Secure`. */
  secure: boolean;
  /** The stylesheet a plugin gave the control plane's pages (`HttpRoutes.pageStylesheet`), read on every request. */
  stylesheet(): string | undefined;
  /** Local users (email and password); absent without a store. */
  users?: UserTable;
  audit?: AuditLog;
  /** Single sign-on, when `control_plane.oidc` is set: its button, and the provider's logout. */
  oidc?: OidcRelyingParty;
}

export const LOGIN_PATH = LOGIN_FORM_PATH;
export const LOGOUT_PATH = LOGOUT_FORM_PATH;
/** Bytes: a token and a `next` path, with room to spare. */
const FORM_LIMIT = 4096;

/**
 * The login page's own headers. Its CSP allows no script and no inline style at all. `same-origin` replaces the
 * control plane's `no-referrer` here because under `no-referrer` a browser sends `Origin: null` with a form post,
 * and a real Origin is the login's same-origin proof in browsers without fetch metadata.
 */
const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `next` when it is a path on this server that carries no token; otherwise `/`. Never an open redirect. */
export function sameSiteTarget(next: unknown): string {
  // "//host" and "/\\host" are read by browsers as another host; control characters are stripped by them, so
  // a path holding one is refused outright.
  if (typeof next !== 'string' || !next.startsWith('/') || /^.[/\\]|[\\\u0000-\u001f\u007f]/.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, 'http://control-plane.invalid');
  } catch {
    return '/';
  }
  if (url.origin !== 'http://control-plane.invalid' || url.searchParams.has('token')) return '/';
  return url.pathname + url.search;
}

/**
 * The login form with this status, and what went wrong. The email and password form shows once an owner has made a
 * local user; until then an install has only the token, and the form is the one it always was.
 */
export async function page(ctx: RouteContext, status: number, next: string, o: LoginRouteOptions, problem?: string): Promise<Buffer> {
  const localUsers = o.users ? await o.users.hasLocalUsers().catch(() => true) : false;
  for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value);
  ctx.type = 'text/html; charset=utf-8';
  ctx.status = status;
  return loginPage({ next, stylesheet: o.stylesheet(), problem, provider: o.oidc?.settings.providerName, localUsers });
}

/** A scrypt hash of nothing anyone knows: an unknown email costs the same time as a wrong password. */
let decoy: Promise<string> | undefined;

/**
 * A local user's email and password: resolves with the user's id; throws 401 (counted towards the lockout) for an
 * unknown email, a wrong password or a disabled user, without saying which.
 */
async function checkLocalUser(o: LoginRouteOptions, form: URLSearchParams, address: string): Promise<{ id: string; email: string }> {
  o.authenticator.assertNotLocked(address);
  const email = form.get('email') ?? '';
  const password = form.get('password') ?? '';
  if (!o.users) throw httpError(HttpErrors.BAD_REQUEST, 'this instance has no local users (it keeps no store); log in with the dashboard token');
  if (email === '' || password === '') throw httpError(HttpErrors.BAD_REQUEST, 'enter your email and password');
  const user = await o.users.byEmail(email);
  const ok = user?.source === 'local' && user.passwordHash
    ? await verifyPassword(password, user.passwordHash)
    : (await verifyPassword(password, await (decoy ??= hashPassword('vigil decoy password'))), false);
  if (!ok || !user || user.disabled) {
    o.authenticator.recordFailure('local', address);
    await o.audit?.write({ actorId: user?.id ?? null, actor: email.slice(0, 200), action: 'sign-in refused', target: 'password', project: null, status: 401, address, detail: user?.disabled ? 'the user is disabled' : 'wrong email or password' });
    throw unauthorized('wrong email or password');
  }
  await o.users.recordSignIn(user.id, {});
  return { id: user.id, email: user.email };
}

const prefersHtml = (headers: IncomingHttpHeaders): boolean => typeof headers.accept === 'string' && /\btext\/html\b/i.test(headers.accept);

const isForm = (contentType: string | undefined): boolean =>
  contentType !== undefined && contentType.split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded';

function redirect(ctx: RouteContext, location: string): undefined {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Location', location);
  ctx.body = '';
  ctx.status = 303;
  return undefined;
}

/**
 * The login form (`GET /login`, `POST /login`) and `POST /logout`: the second place, after the dashboard link, where
 * the token is exchanged for the session cookie. A login is accepted from the dashboard's own page (Sec-Fetch-Site:
 * same-origin, or our Origin) and from clients that send neither header (scripts: a browser always sends Origin with
 * a POST); from anywhere else it is refused before the token is read, so it is neither counted nor a login.
 */
export function registerLoginRoutes(table: RouteTable, o: LoginRouteOptions): void {
  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: LOGIN_PATH,
    auth: 'none',
    summary: 'The dashboard login form (HTML)',
    tags: ['auth'],
    query: { type: 'object', properties: { next: { type: 'string', maxLength: 2048, description: 'Path to open after logging in.' } } },
    response: HTML_BODY,
    handler: (ctx) => page(ctx, 200, sameSiteTarget(ctx.query.next), o),
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'POST',
    path: LOGIN_PATH,
    auth: 'none',
    summary: 'Exchanges the dashboard token for the session cookie',
    description: 'A form (application/x-www-form-urlencoded) with `token` and optionally `next`, a path on this server. ' +
      'Only from the dashboard\'s own page, or from a client that sends neither Origin nor Sec-Fetch-Site. ' +
      'Answers 303 to `next` (default /) with the session cookie. Wrong tokens count towards the lockout.',
    tags: ['auth'],
    // The form again, with what went wrong, for a person whose browser prefers HTML.
    responses: { 303: NO_BODY, 400: HTML_BODY, 401: HTML_BODY, 429: HTML_BODY },
    rawBody: true,
    bodyLimit: FORM_LIMIT,
    async handler(ctx) {
      const site = o.sites.classify(ctx.headers);
      let next = '/';
      let userId: string | null = null;
      let actor = 'dashboard token';
      try {
        if (site === 'cross-site') throw crossSite('a login posted by a page on another site');
        // Sec-Fetch-Site: none is a typed address or a bookmark, never a form post.
        if (site === 'user') throw sameOriginRequired('the login form');
        if (!isForm(ctx.headers['content-type'])) {
          throw httpError(HttpErrors.UNSUPPORTED_MEDIA_TYPE, 'the login form is sent as application/x-www-form-urlencoded');
        }
        let text: string;
        try {
          text = utf8.decode(ctx.request.body as Buffer);
        } catch {
          throw httpError(HttpErrors.BAD_REQUEST, 'the login form is not valid UTF-8');
        }
        const form = new URLSearchParams(text);
        next = sameSiteTarget(form.get('next'));
        if (form.has('email')) {
          userId = (await checkLocalUser(o, form, ctx.ip)).id;
          actor = form.get('email')!.trim().toLowerCase();
        } else {
          o.authenticator.checkFormToken(form.getAll('token'), ctx.ip);
        }
      } catch (err) {
        // A person at the form gets the form back; a script gets the JSON error every route answers with.
        if (err instanceof HttpError && [400, 401, 429].includes(err.status) && prefersHtml(ctx.headers)) {
          if (err instanceof LockedOutError) ctx.set('Retry-After', String(err.retryAfterSeconds));
          return page(ctx, err.status, next, o, err.message);
        }
        throw err;
      }
      const value = await o.sessions.start({ userAgent: ctx.headers['user-agent'], address: ctx.ip }, userId);
      await o.audit?.write({ actorId: userId, actor, action: 'sign-in', target: userId ? 'password' : 'token', project: null, status: 303, address: ctx.ip, detail: null });
      ctx.set('Set-Cookie', sessionSetCookie(value, o.sessions.cookieMaxAgeSeconds, o.secure));
      return redirect(ctx, next);
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'POST',
    path: LOGOUT_PATH,
    auth: 'none',
    summary: 'Ends the dashboard session of this browser on the server, and clears its cookie',
    description: 'Only from the dashboard\'s own page. The session ends for every copy of the cookie, in every process ' +
      'sharing the store (docs/security.md, "Sessions"). Answers 303 to /login.',
    tags: ['auth'],
    responses: { 303: NO_BODY, 200: HTML_BODY },
    rawBody: true,
    bodyLimit: FORM_LIMIT,
    async handler(ctx) {
      const site = o.sites.classify(ctx.headers);
      if (site === 'cross-site') throw crossSite('a logout posted by a page on another site');
      if (site !== 'same-origin') throw sameOriginRequired('logging out');
      const cookies = readCookies(ctx.headers.cookie, SESSION_COOKIE);
      const who = await signedInUser(o, cookies);
      await o.sessions.endByCookie(cookies);
      ctx.set('Set-Cookie', clearSessionCookie(o.secure));
      if (who) {
        await o.audit?.write({ actorId: who.id, actor: who.email, action: 'sign-out', target: who.source, project: null, status: 303, address: ctx.ip, detail: null });
        // An OIDC user is signed out at the provider too, which sends the browser back to the login form.
        const provider = who.source === 'oidc' && o.oidc ? await o.oidc.endSessionUrl(new URL(LOGIN_PATH, o.oidc.settings.redirectUrl).href) : null;
        // A page, not a redirect: the dashboard's CSP (form-action 'self') would block a form post redirected to
        // the provider, and a refresh from a page of ours is a navigation of its own.
        if (provider) {
          for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value);
          ctx.type = 'text/html; charset=utf-8';
          ctx.status = 200;
          return signingOutPage(provider.href, o.oidc!.settings.providerName, o.stylesheet());
        }
      }
      return redirect(ctx, LOGIN_PATH);
    },
  });
}

/** The user whose open session one of `cookies` is, or null (the token's session, or none). */
async function signedInUser(o: LoginRouteOptions, cookies: readonly string[]): Promise<{ id: string; email: string; source: string } | null> {
  if (!o.users) return null;
  for (const value of cookies) {
    const check = await o.sessions.check(value);
    if (check.state !== 'open' || check.userId === null) continue;
    const user = await o.users.byId(check.userId);
    if (user) return { id: user.id, email: user.email, source: user.source };
  }
  return null;
}
