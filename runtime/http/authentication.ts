import { HttpError, VigilError, type AuthPrincipal, type CounterChild, type Counter, type RouteContext } from '@vigil/plugin-sdk';
import { tokenMatches } from './dashboard-token.js';
import {
  crossSite, HttpErrors, LockedOutError, PluginFailure, sameOriginRequired, UnauthorizedError, unauthorized,
} from './errors.js';
import type { FailureLockout } from './lockout.js';
import { isNavigation, isSafeMethod, type RequestSite } from './request-site.js';
import type { RouteTable } from './route-table.js';
import { readCookies, SESSION_COOKIE, type SessionSigner } from './session-cookie.js';

export interface AuthenticatorOptions {
  tokenHash: string;
  sessions: SessionSigner;
  /** Failures of what a page on another site cannot send: bearer tokens, the login form, plugin schemes' headers. */
  lockout: FailureLockout;
  /** Failures of `GET /?token=`, which an old browser's `<img>` can send: they lock that exchange and nothing else. */
  urlLockout: FailureLockout;
  table: RouteTable;
  /** `vigil_auth_failures_total{scheme}` */
  failures: Counter;
  /** `vigil_auth_lockouts_total` */
  lockouts: CounterChild;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const TOKEN_PRINCIPAL: AuthPrincipal = Object.freeze({ scheme: 'dashboard', subject: 'token' });

/**
 * Decides who a request is, for every scheme, and keeps the lockout's books. The rules (docs/security.md):
 * - A request a page on another site could have sent is refused before any credential is looked at, so it never
 *   counts and never logs in; only a GET navigation (a link) may still be recognised by its session cookie.
 * - Only a wrong secret that a brute force would guess counts: a bearer token, the login form's token, a plugin
 *   scheme's credentials. The `/?token=` URL counts in a lockout of its own, since old browsers let any page send it.
 * - A forged session cookie is refused but never counted: the HMAC cannot be guessed, and a sibling site on the same
 *   host can plant cookies in the operator's browser.
 * - A locked address still gets in with a valid session cookie (it cannot be guessed either); the token, which can,
 *   is refused until the lock lifts.
 */
export class Authenticator {
  constructor(private readonly options: AuthenticatorOptions) {}

  /** Throws 429 with the seconds to wait while `address` is locked out. */
  assertNotLocked(address: string | undefined): void {
    const seconds = this.options.lockout.lockedFor(address);
    if (seconds > 0) throw new LockedOutError(seconds);
  }

  /** Counts one wrong credential from `address` under `scheme`. */
  recordFailure(scheme: string, address: string | undefined, lockout = this.options.lockout): void {
    this.options.failures.labels(scheme).inc();
    if (lockout.fail(address)) this.options.lockouts.inc();
  }

  /** Whether `token` is the dashboard token (constant time). */
  tokenIsValid(token: string): boolean {
    return tokenMatches(token, this.options.tokenHash);
  }

  /** The `token` values of the dashboard link `GET /?token=`: returns when one is right; throws 401 or 429. */
  checkUrlToken(tokens: string[], address: string | undefined): void {
    const seconds = Math.max(this.options.lockout.lockedFor(address), this.options.urlLockout.lockedFor(address));
    if (seconds > 0) throw new LockedOutError(seconds);
    const given = tokens.filter((t) => t !== '');
    if (given.length === 0) throw unauthorized('the token parameter is empty');
    if (given.length > 1 || !this.tokenIsValid(given[0])) {
      this.recordFailure('dashboard', address, this.options.urlLockout);
      throw unauthorized('wrong dashboard token');
    }
  }

  /** The `token` fields of the login form: returns when one is right; throws 400, 401 or 429. */
  checkFormToken(tokens: string[], address: string | undefined): void {
    this.assertNotLocked(address);
    if (tokens.length === 0 || (tokens.length === 1 && tokens[0] === '')) {
      throw new HttpError(400, HttpErrors.BAD_REQUEST, 'enter the dashboard token');
    }
    if (tokens.length > 1 || !this.tokenIsValid(tokens[0])) {
      this.recordFailure('dashboard', address);
      throw unauthorized('wrong dashboard token');
    }
  }

  /**
   * Authenticates `ctx` for a route or websocket protected by `auth` (`none`, `dashboard` or a plugin scheme), given
   * where the request comes from. Returns the principal (undefined for `none`); throws 401, 403, 429, a plugin's
   * HttpError, or a PluginFailure.
   */
  async authenticate(auth: string, ctx: RouteContext, site: RequestSite): Promise<AuthPrincipal | undefined> {
    if (auth === 'none') return undefined;
    if (site === 'cross-site') {
      // A bearer token or a plugin's credentials never travel in a browser navigation: a request that claims both
      // is a script, which has no reason to claim the first.
      if (auth !== 'dashboard' || !isNavigation(ctx.method, ctx.headers) || ctx.headers.authorization !== undefined) {
        throw crossSite(`${ctx.method} ${ctx.path}`);
      }
      return this.session(ctx, site);
    }
    if (auth === 'dashboard') {
      const bearer = ctx.headers.authorization === undefined ? null : BEARER.exec(ctx.headers.authorization);
      // Other schemes in Authorization (Basic, …) are not dashboard credentials at all, so they are not counted.
      if (!bearer) return this.session(ctx, site);
      this.assertNotLocked(ctx.ip);
      if (this.tokenIsValid(bearer[1])) return TOKEN_PRINCIPAL;
      this.recordFailure('dashboard', ctx.ip);
      throw unauthorized('wrong dashboard token');
    }
    const registered = this.options.table.schemes.get(auth);
    if (!registered) throw new VigilError(HttpErrors.AUTH_SCHEME_UNKNOWN, `auth scheme "${auth}" is not registered`);
    this.assertNotLocked(ctx.ip);
    let principal: AuthPrincipal | null;
    try {
      principal = await registered.scheme.authenticate(ctx);
    } catch (err) {
      if (err instanceof HttpError && err.status === 401) this.recordFailure(auth, ctx.ip);
      if (err instanceof VigilError && err.status >= 400 && err.status < 500) throw err;
      throw new PluginFailure(registered.plugin, `auth scheme "${auth}"`, err);
    }
    if (principal === null || principal === undefined) throw unauthorized(`this route needs ${auth} credentials`);
    if (typeof principal !== 'object') {
      throw new PluginFailure(registered.plugin, `auth scheme "${auth}"`, new TypeError('authenticate() must return an object or null'));
    }
    return principal.scheme ? principal : { ...principal, scheme: auth };
  }

  /** The session cookie: a browser may send several (different paths, or one planted by a sibling site); one valid wins. */
  private session(ctx: RouteContext, site: RequestSite): AuthPrincipal {
    let forged = false;
    for (const value of readCookies(ctx.headers.cookie, SESSION_COOKIE)) {
      const check = this.options.sessions.verify(value);
      if (check.state === 'valid') {
        // The cookie rides along on whatever the browser sends; only our own page may use it to change something.
        if (!isSafeMethod(ctx.method) && site !== 'same-origin') throw sameOriginRequired(`${ctx.method} ${ctx.path} with the session cookie`);
        return { scheme: 'dashboard', subject: `session:${check.id}` };
      }
      // An expired session is a browser left open: answered 401 like no credentials.
      if (check.state === 'invalid') forged = true;
    }
    this.assertNotLocked(ctx.ip);
    if (forged) {
      this.options.failures.labels('dashboard').inc();
      // Cleared, so a stale cookie (signed before a token change) is sent once, not on every request.
      throw new UnauthorizedError('the dashboard session is not valid; open the dashboard link again or log in at /login', true);
    }
    throw unauthorized();
  }
}
