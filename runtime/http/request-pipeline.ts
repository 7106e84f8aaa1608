import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Context as KoaContext, Middleware, Next } from 'koa';
import type Router from '@koa/router';
import { bodyUnread, HttpError, httpError, lingeringClose, VigilError, type AuthPrincipal, type LingerLimits, type Logger } from '@vigil/plugin-sdk';
import { assertAllowedHost, type HostAllowList } from './allowed-hosts.js';
import { sessionHandleOf, type Authenticator } from './authentication.js';
import type { ControlPlaneMetrics } from './control-plane-metrics.js';
import {
  crossSite, HttpErrors, LockedOutError, MethodNotAllowedError, notFound, PluginFailure, UnauthorizedError, ValidationError,
} from './errors.js';
import { LOGIN_PATH } from './dashboard-login.js';
import { hasBody, parseJsonBody, readBody } from './request-body.js';
import type { RequestSite, SiteClassifier } from './request-site.js';
import { assertDeclaredResponse } from './response-check.js';
import { KoaRouteContext } from './route-context.js';
import { CONTROL_PLANE_OWNER, type RegisteredRoute } from './route-table.js';
import type { DashboardSessions } from './dashboard-sessions.js';
import { clearSessionCookie, sessionSetCookie } from './session-cookie.js';
import { requestAccess, userAllows } from './route-access.js';
import { roleIn, type Access } from '../auth/roles.js';
import type { AuditLog } from '../auth/audit-log.js';

export interface PipelineOptions {
  authenticator: Authenticator;
  sessions: DashboardSessions;
  allowedHosts: HostAllowList;
  sites: SiteClassifier;
  /** Served over TLS: the session cookie gets `Secure`. */
  secure: boolean;
  log: Logger;
  metrics: ControlPlaneMetrics;
  /** Bounds of the read-and-discard after an answer given before the request body was read (lingering-close.ts). */
  linger: LingerLimits;
  /** Where every change made with the dashboard auth is recorded; absent without a store. */
  audit?: AuditLog;
  onPluginError?(plugin: string, err: unknown): void;
}

/** Where the matched route is kept on Koa's state; a symbol, so a handler writing `ctx.state` cannot clobber it. */
const ROUTE = Symbol('vigil.route');
const SITE = Symbol('vigil.site');
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CODES: Record<number, string> = {
  400: HttpErrors.BAD_REQUEST, 401: HttpErrors.UNAUTHORIZED, 404: HttpErrors.NOT_FOUND,
  405: HttpErrors.METHOD_NOT_ALLOWED, 413: HttpErrors.BODY_TOO_LARGE, 415: HttpErrors.UNSUPPORTED_MEDIA_TYPE,
};

/** Stands for the token exchange in the request metrics, whatever path it happened on. */
const TOKEN_EXCHANGE = { path: 'token-exchange' } as RegisteredRoute;

function routeOf(ctx: KoaContext): RegisteredRoute | undefined {
  return (ctx.state as Record<symbol, RegisteredRoute | undefined>)[ROUTE];
}

/** Where the request comes from (request-site.ts), classified once per request. */
function siteOf(ctx: KoaContext, options: PipelineOptions): RequestSite {
  const state = ctx.state as Record<symbol, RequestSite | undefined>;
  return (state[SITE] ??= options.sites.classify(ctx.headers));
}

/**
 * What every response carries. The CSP allows nothing: JSON and errors need none of it, and an answer a browser is
 * tricked into rendering as a page can then run nothing. HTML pages set their own policy over it.
 */
function setSecurityHeaders(ctx: KoaContext): void {
  ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
}

/** What a client sees for `err`, and what the server logs. Never a stack; 5xx messages are generic. */
function respondError(ctx: KoaContext, err: unknown, options: PipelineOptions): void {
  let status = 500;
  let code: string = HttpErrors.INTERNAL;
  let message = '';
  if (err instanceof VigilError && err.status >= 400 && err.status < 600 && (err instanceof HttpError || err.status < 500)) {
    ({ status, code, message } = err);
  } else if (!(err instanceof PluginFailure) && (err as { expose?: boolean })?.expose === true &&
    typeof (err as { status?: unknown }).status === 'number') {
    // Koa's own client errors (http-errors), e.g. a malformed request it refused.
    status = (err as { status: number }).status;
    code = STATUS_CODES[status] ?? HttpErrors.BAD_REQUEST;
    message = (err as Error).message;
  } else {
    const requestId = randomBytes(4).toString('hex');
    const route = routeOf(ctx)?.path ?? ctx.path;
    if (err instanceof PluginFailure) {
      options.onPluginError?.(err.plugin, err.cause);
      options.log.error('route handler failed', { plugin: err.plugin, requestId, method: ctx.method, route, err: err.cause as Error });
    } else {
      options.log.error('control plane request failed', { requestId, method: ctx.method, route, err: err as Error });
    }
    message = `internal error (request ${requestId}); the server log has the details`;
  }
  if (ctx.headerSent || !ctx.writable) {
    ctx.res.destroy();
    return;
  }
  for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name);
  setSecurityHeaders(ctx);
  ctx.set('Cache-Control', 'no-store');
  if (err instanceof HttpError && err.headers && status === err.status) {
    for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
  }
  if (err instanceof LockedOutError) ctx.set('Retry-After', String(err.retryAfterSeconds));
  if (err instanceof MethodNotAllowedError) ctx.set('Allow', err.allow.join(', '));
  if (status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="vigil"');
  if (err instanceof UnauthorizedError && err.clearSession) {
    ctx.set('Set-Cookie', clearSessionCookie(options.secure));
  }
  ctx.status = status;
  ctx.type = 'application/json';
  const error: Record<string, string> = { code, message };
  if (err instanceof ValidationError) error.path = err.path;
  ctx.body = JSON.stringify({ error });
}

/** First middleware: security headers, JSON errors for everything below, and the request metrics. */
export function errorBoundary(options: PipelineOptions): Middleware {
  return async (ctx: KoaContext, next: Next) => {
    const started = process.hrtime.bigint();
    setSecurityHeaders(ctx);
    try {
      await next();
    } catch (err) {
      respondError(ctx, err, options);
    } finally {
      // An answer given before the body was read (413 on its announced length, 401 before reading): the client may
      // still be sending it. Closing now would reset the connection and lose the answer; read the rest, bounded.
      if (bodyUnread(ctx.req)) {
        lingeringClose(ctx.req, ctx.res, options.linger, (outcome) => options.metrics.lingeringCloses.labels(outcome).inc());
      }
      const route = routeOf(ctx)?.path ?? 'unmatched';
      const method = METHODS.has(ctx.method) ? ctx.method : 'OTHER';
      options.metrics.requests.labels(route, method, String(ctx.status)).inc();
      options.metrics.duration.labels(route, method).observe(Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}

/** Second middleware: a Host this control plane does not answer to is refused before anything reads the request. */
export function hostGuard(options: PipelineOptions): Middleware {
  return async (ctx: KoaContext, next: Next) => {
    assertAllowedHost(ctx.req, options.allowedHosts);
    return next();
  };
}

/**
 * `GET /?token=T`, the dashboard link: exchanges the dashboard token for a session cookie and redirects to `/`
 * without the token, so it leaves the address bar and never reaches a Referer, a log line or a link. Only there:
 * anywhere else a `token` parameter is refused unread, so a page that plants one in an `<img>` never counts a
 * failure. At `/` itself a request from another site is refused unread too; what remains (the address bar, our own
 * pages, scripts, and old browsers' `<img>`) counts in the URL's own lockout, which never locks the bearer token.
 */
export function tokenExchange(options: PipelineOptions): Middleware {
  return async (ctx: KoaContext, next: Next) => {
    const raw = ctx.querystring;
    // A name can be percent-encoded (%74oken), and is then still `token` to URLSearchParams and to the browser.
    if (!raw || (!raw.includes('token') && !raw.includes('%'))) return next();
    const params = new URLSearchParams(raw);
    if (!params.has('token')) return next();
    (ctx.state as Record<symbol, unknown>)[ROUTE] = TOKEN_EXCHANGE;
    if (ctx.path !== '/' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      throw httpError(HttpErrors.TOKEN_IN_QUERY,
        'the dashboard token is accepted in a URL only by GET / (the dashboard link); scripts send ' +
        '"Authorization: Bearer <token>", and people can log in at /login');
    }
    if (siteOf(ctx, options) === 'cross-site') throw crossSite('the dashboard link opened from a page on another site');
    const { authenticator, sessions } = options;
    authenticator.checkUrlToken(params.getAll('token'), ctx.ip);
    params.delete('token');
    const value = await sessions.start({ userAgent: ctx.get('User-Agent') || undefined, address: ctx.ip });
    await options.audit?.write({ actorId: null, actor: 'dashboard token', action: 'sign-in', target: 'token link', project: null, status: 302, address: ctx.ip || null, detail: null });
    const rest = params.toString();
    ctx.set('Set-Cookie', sessionSetCookie(value, sessions.cookieMaxAgeSeconds, options.secure));
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Location', rest ? `/?${rest}` : '/');
    ctx.body = '';
    ctx.status = 302;
  };
}

function isRawBody(value: unknown): boolean {
  return Buffer.isBuffer(value) || value instanceof Uint8Array || value instanceof Readable;
}

/**
 * The Koa middleware of one registered route: auth, the role (route-access.ts), query, body, handler, response; and
 * for a change made with the dashboard auth, an audit entry with the answer's status, whatever it was.
 */
export function routeMiddleware(route: RegisteredRoute, options: PipelineOptions): Middleware {
  const { definition } = route;
  return async (ctx: KoaContext) => {
    (ctx.state as Record<symbol, unknown>)[ROUTE] = route;
    const rc = new KoaRouteContext(ctx, { ...((ctx as { params?: Record<string, string> }).params ?? {}) }, { ...ctx.query });
    let principal: AuthPrincipal | undefined;
    try {
      principal = await options.authenticator.authenticate(route.auth, rc, siteOf(ctx, options));
    } catch (err) {
      // A person's browser is sent to the login form; a script that sent credentials gets its 401.
      if (definition.loginRedirect && err instanceof UnauthorizedError && ctx.headers.authorization === undefined) {
        return redirectToLogin(ctx, err, options);
      }
      throw err;
    }
    if (principal) (ctx.state as Record<string, unknown>).auth = principal;
    const user = route.auth === 'dashboard' ? principal?.user : undefined;
    if (!user) return serveRoute(ctx, rc, route, options);
    const need = requestAccess(route.access, rc.params);
    // Reads are not audited: the log is of changes (and sign-ins), so it stays readable.
    const audited = options.audit !== undefined && ctx.method !== 'GET' && ctx.method !== 'HEAD';
    let status = 500;
    try {
      if (need && !userAllows(user, need)) throw roleRequired(need, roleIn({ instance: user.instanceRole, projects: user.projects }, need.project));
      await serveRoute(ctx, rc, route, options);
      status = ctx.status;
    } catch (err) {
      status = err instanceof VigilError && err.status >= 400 && err.status < 600 ? err.status : 500;
      throw err;
    } finally {
      if (audited) {
        await options.audit!.write({
          actorId: user.id, actor: user.email ?? 'dashboard token', action: `${ctx.method} ${route.path}`, target: ctx.path,
          project: need?.project ?? null, status, address: ctx.ip || null,
          detail: typeof (ctx.state as Record<string, unknown>).audit_detail === 'string' ? (ctx.state as Record<string, string>).audit_detail : null,
        });
      }
    }
  };
}

/** A 403 that says which role the route needs, where, and what the caller holds there. */
function roleRequired(need: Access, held: string | null): HttpError {
  const where = need.project === null ? 'on this instance' : `in project ${JSON.stringify(need.project)}`;
  return httpError(HttpErrors.ROLE_REQUIRED,
    `this needs the ${need.role} role ${where}; you ${held === null ? 'have no role there' : `are ${held} there`}. An owner can change roles in Settings > Users`);
}

/** Query, body, handler and response of a route, once its caller is known and allowed. */
async function serveRoute(ctx: KoaContext, rc: KoaRouteContext, route: RegisteredRoute, options: PipelineOptions): Promise<void> {
  const { definition } = route;
  const where = `route ${route.method} ${route.path}`;
  const principal = (ctx.state as Record<string, unknown>).auth as AuthPrincipal | undefined;
  route.validateQuery?.(rc.query);
  // Bodies are read only after authentication: an anonymous client cannot make the server buffer anything.
  if (hasBody(ctx.req)) {
    const raw = await readBody(ctx.req, route.bodyLimit);
    rc.request.body = definition.rawBody ? raw : raw.length === 0 ? undefined : parseJsonBody(raw, ctx.get('Content-Type') || undefined);
  } else if (definition.rawBody) {
    rc.request.body = Buffer.alloc(0);
  }
  route.validateBody?.(rc.request.body);

  let result: unknown;
  try {
    result = await definition.handler(rc);
    if (result !== undefined) {
      if (result instanceof Readable) holdWhileSessionLasts(ctx, principal, options.sessions);
      if (isRawBody(result)) ctx.body = result;
      else {
        ctx.type = 'application/json';
        ctx.body = JSON.stringify(result);
      }
    }
  } catch (err) {
    if (err instanceof VigilError && (err instanceof HttpError || (err.status >= 400 && err.status < 500))) throw err;
    if (route.plugin === CONTROL_PLANE_OWNER) throw err;
    throw new PluginFailure(route.plugin, where, err);
  }
  if (!rc.statusSet) {
    if (ctx.body === undefined || ctx.body === null) {
      const status = definition.status ?? 204;
      ctx.body = '';
      ctx.status = status;
    } else {
      ctx.status = definition.status ?? 200;
    }
  }
  if (route.checkResponse) assertDeclaredResponse(ctx, route, result, options.log);
}

/**
 * A stream (the live events, a download) answered to a session lasts only as long as the session: a logout, an
 * admin or a token change cuts it, instead of it carrying data to a browser that is logged out.
 */
function holdWhileSessionLasts(ctx: KoaContext, principal: AuthPrincipal | undefined, sessions: DashboardSessions): void {
  const handle = sessionHandleOf(principal);
  if (handle === null) return;
  const release = sessions.hold(handle, () => ctx.res.destroy());
  ctx.res.once('close', release);
}

/** A page (`loginRedirect`) opened without a valid session: to the login form, which brings the person back here. */
function redirectToLogin(ctx: KoaContext, err: UnauthorizedError, options: PipelineOptions): void {
  ctx.set('Cache-Control', 'no-store');
  if (err.clearSession) ctx.set('Set-Cookie', clearSessionCookie(options.secure));
  ctx.set('Location', `${LOGIN_PATH}?next=${encodeURIComponent(ctx.url)}`);
  ctx.body = '';
  ctx.status = 302;
}

/** Last middleware: nothing matched. 405 with Allow when the path exists for other methods, else 404. */
export function unmatched(router: Router): Middleware {
  return async (ctx: KoaContext) => {
    if (routeOf(ctx)) return;
    const match = router.match(ctx.path, ctx.method);
    const allow = [...new Set(match.path.flatMap((layer) => layer.methods))];
    if (allow.length > 0) {
      if (ctx.method === 'OPTIONS') {
        ctx.set('Allow', allow.join(', '));
        ctx.body = '';
        ctx.status = 204;
        return;
      }
      throw new MethodNotAllowedError(ctx.method, ctx.path, allow);
    }
    throw notFound(ctx.method, ctx.path);
  };
}
