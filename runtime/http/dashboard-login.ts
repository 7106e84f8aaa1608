import type { IncomingHttpHeaders } from 'node:http';
import { HttpError, type RouteContext } from '@vigil/plugin-sdk';
import type { Authenticator } from './authentication.js';
import { crossSite, HttpErrors, LockedOutError, sameOriginRequired } from './errors.js';
import type { SiteClassifier } from './request-site.js';
import { CONTROL_PLANE_OWNER, type RouteTable } from './route-table.js';
import { clearSessionCookie, sessionSetCookie, type SessionSigner } from './session-cookie.js';

export interface LoginRouteOptions {
  authenticator: Authenticator;
  sessions: SessionSigner;
  sites: SiteClassifier;
  /** Served over TLS: the session cookie gets `Secure`. */
  secure: boolean;
  /** The stylesheet a plugin gave the control plane's pages (`HttpRoutes.pageStylesheet`), read on every request. */
  stylesheet(): string | undefined;
}

export const LOGIN_PATH = '/login';
export const LOGOUT_PATH = '/logout';
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

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The form, plain server-rendered HTML that works without script. The classes are the hooks of the stylesheet a
 * plugin may give (`HttpRoutes.pageStylesheet`, the web UI's `login.css`); without it the page is plain HTML.
 */
function loginPage(next: string, stylesheet: string | undefined, problem?: string): Buffer {
  return Buffer.from(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Log in · Vigil</title>
${stylesheet ? `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">\n` : ''}</head>
<body class="login-page">
<main class="login">
<p class="login-brand">Vigil</p>
<h1>Log in to the dashboard</h1>
${problem ? `<p class="login-problem" role="alert">${escapeHtml(problem)}</p>\n` : ''}<form method="post" action="${LOGIN_PATH}" class="login-form">
<label for="token">Dashboard token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
<input type="hidden" name="next" value="${escapeHtml(next)}">
<button type="submit">Log in</button>
</form>
<p class="login-hint">The token is <code>control_plane.token</code> in the config file, or the one Vigil printed with the dashboard link when it first started.</p>
</main>
</body>
</html>
`, 'utf8');
}

function page(ctx: RouteContext, status: number, next: string, stylesheet: string | undefined, problem?: string): Buffer {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value);
  ctx.type = 'text/html; charset=utf-8';
  ctx.status = status;
  return loginPage(next, stylesheet, problem);
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
    handler: (ctx) => page(ctx, 200, sameSiteTarget(ctx.query.next), o.stylesheet()),
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
    status: 303,
    rawBody: true,
    bodyLimit: FORM_LIMIT,
    handler(ctx) {
      const site = o.sites.classify(ctx.headers);
      let next = '/';
      try {
        if (site === 'cross-site') throw crossSite('a login posted by a page on another site');
        // Sec-Fetch-Site: none is a typed address or a bookmark, never a form post.
        if (site === 'user') throw sameOriginRequired('the login form');
        if (!isForm(ctx.headers['content-type'])) {
          throw new HttpError(415, HttpErrors.UNSUPPORTED_MEDIA_TYPE, 'the login form is sent as application/x-www-form-urlencoded');
        }
        let text: string;
        try {
          text = utf8.decode(ctx.request.body as Buffer);
        } catch {
          throw new HttpError(400, HttpErrors.BAD_REQUEST, 'the login form is not valid UTF-8');
        }
        const form = new URLSearchParams(text);
        next = sameSiteTarget(form.get('next'));
        o.authenticator.checkFormToken(form.getAll('token'), ctx.ip);
      } catch (err) {
        // A person at the form gets the form back; a script gets the JSON error every route answers with.
        if (err instanceof HttpError && [400, 401, 429].includes(err.status) && prefersHtml(ctx.headers)) {
          if (err instanceof LockedOutError) ctx.set('Retry-After', String(err.retryAfterSeconds));
          return page(ctx, err.status, next, o.stylesheet(), err.message);
        }
        throw err;
      }
      const session = o.sessions.issue();
      ctx.set('Set-Cookie', sessionSetCookie(session.value, Math.floor(o.sessions.ttlMs / 1000), o.secure));
      return redirect(ctx, next);
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'POST',
    path: LOGOUT_PATH,
    auth: 'none',
    summary: 'Ends the dashboard session in this browser (clears the session cookie)',
    description: 'Only from the dashboard\'s own page. Answers 303 to /login.',
    tags: ['auth'],
    status: 303,
    rawBody: true,
    bodyLimit: FORM_LIMIT,
    handler(ctx) {
      const site = o.sites.classify(ctx.headers);
      if (site === 'cross-site') throw crossSite('a logout posted by a page on another site');
      if (site !== 'same-origin') throw sameOriginRequired('logging out');
      ctx.set('Set-Cookie', clearSessionCookie(o.secure));
      return redirect(ctx, LOGIN_PATH);
    },
  });
}
