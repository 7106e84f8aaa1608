import { HttpError, httpError, VigilError, type AuthPrincipal, type CounterChild, type Counter, type RouteContext } from '@vigil/plugin-sdk';
import { tokenMatches } from './dashboard-token.js';
import {
  crossSite, HttpErrors, LockedOutError, PluginFailure, sameOriginRequired, UnauthorizedError, unauthorized,
} from './errors.js';
import type { FailureLockout } from './lockout.js';
import { TOKEN_USER, type UserDirectory } from '../auth/user-directory.js';
import { isNavigation, isSafeMethod, type RequestSite } from './request-site.js';
import type { RouteTable } from './route-table.js';
import type { DashboardSessions } from './dashboard-sessions.js';
import { readCookies, SESSION_COOKIE } from './session-cookie.js';

export interface AuthenticatorOptions {
  tokenHash: string;
  sessions: DashboardSessions;
  /** Failures of what a page on another site cannot send: bearer tokens, the login form, plugin schemes' headers. */
  lockout: FailureLockout;
  /** Failures of `GET /?token=`, which an old browser's `<img>` can send: they lock that exchange and nothing else. */
  urlLockout: FailureLockout;
  table: RouteTable;
  /** Who a user's session belongs to; absent without a store (then only the token logs in). */
  users?: UserDirectory;
  /** `vigil_auth_failures_total{scheme}` */
  failures: Counter;
  /** `vigil_auth_lockouts_total` */
  lockouts: CounterChild;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const TOKEN_PRINCIPAL: AuthPrincipal = Object.freeze({ scheme: 'dashboard', subject: 'token', user: TOKEN_USER });

/**
 * Decides who a request is, for every scheme, and keeps the lockout's books. The rules (docs/security.md):
 * - A request a page on another site could have sent is refused before any credential is looked at, so it never
 *   counts and never logs in; only a GET navigation (a link) may still be recognised by its session cookie.
 * - Only a wrong secret that a brute force would guess counts: a bearer token, the login form's token, a plugin
 *   scheme's credentials. The `/?token=` URL counts in a lockout of its own, since old browsers let any page send it.
 * - A session cookie that names no session is refused but never counted towards the lockout: 256 random bits cannot
 *   be guessed, and a sibling site on the same host can plant cookies in the operator's browser.
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
      throw httpError(HttpErrors.BAD_REQUEST, 'enter the dashboard token');
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

  /**
   * The session cookie: a browser may send several (different paths, or one planted by a sibling site); one open
   * session wins. Each is looked up on the server (dashboard-sessions.ts), so a session that was ended is refused.
   */
  private async session(ctx: RouteContext, site: RequestSite): Promise<AuthPrincipal> {
    let unknown = false;
    let over = false;
    for (const value of readCookies(ctx.headers.cookie, SESSION_COOKIE)) {
      const check = await this.options.sessions.check(value);
      if (check.state === 'open') {
        // The cookie rides along on whatever the browser sends; only our own page may use it to change something.
        if (!isSafeMethod(ctx.method) && site !== 'same-origin') throw sameOriginRequired(`${ctx.method} ${ctx.path} with the session cookie`);
        const user = check.userId === null ? TOKEN_USER : await this.options.users?.get(check.userId) ?? null;
        // A disabled or deleted user's session is over, whatever its row says (disabling also ends the rows).
        if (user === null) {
          over = true;
          continue;
        }
        return { scheme: 'dashboard', subject: `${SESSION_SUBJECT}${check.handle}`, user };
      }
      if (check.state === 'unknown') unknown = true;
      else over = true;
    }
    this.assertNotLocked(ctx.ip);
    // A cookie that names no session is counted in the failures metric (not the lockout); one that ended or expired
    // is a browser left open, or logged out elsewhere. Both are cleared, so the browser sends them once.
    if (unknown) this.options.failures.labels('dashboard').inc();
    if (unknown || over) {
      throw new UnauthorizedError(`the dashboard session ${over && !unknown ? 'has ended (logged out, ended by an admin, expired, or the token changed)' : 'is not valid'}; ` +
        'open the dashboard link again or log in at /login', true);
    }
    throw unauthorized();
  }
}

/** A session principal's subject: this prefix and the session's handle (what `GET /api/sessions` lists it as). */
const SESSION_SUBJECT = 'session:';

/** The handle of the session a request was authenticated by, or null (the bearer token, another scheme, none). */
export function sessionHandleOf(principal: AuthPrincipal | undefined): string | null {
  return principal?.scheme === 'dashboard' && typeof principal.subject === 'string' && principal.subject.startsWith(SESSION_SUBJECT)
    ? principal.subject.slice(SESSION_SUBJECT.length) : null;
}
