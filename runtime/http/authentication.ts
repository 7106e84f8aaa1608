import type { IncomingHttpHeaders } from 'node:http';
import { HttpError, VigilError, type AuthPrincipal, type CounterChild, type Counter, type RouteContext } from '@vigil/plugin-sdk';
import { tokenMatches } from './dashboard-token.js';
import { LockedOutError, PluginFailure, UnauthorizedError, unauthorized } from './errors.js';
import type { FailureLockout } from './lockout.js';
import type { RouteTable } from './route-table.js';
import { readCookies, SESSION_COOKIE, type SessionSigner } from './session-cookie.js';

export interface AuthenticatorOptions {
  tokenHash: string;
  sessions: SessionSigner;
  lockout: FailureLockout;
  table: RouteTable;
  /** `vigil_auth_failures_total{scheme}` */
  failures: Counter;
  /** `vigil_auth_lockouts_total` */
  lockouts: CounterChild;
}

/** The outcome of looking at a request's dashboard credentials. */
export type DashboardCredentials = { kind: 'none' } | { kind: 'wrong'; source: 'bearer' | 'cookie' } | { kind: 'ok'; principal: AuthPrincipal };

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Decides who a request is, for every scheme, and keeps the lockout's books: wrong credentials count, absent ones
 * do not, and a locked address is refused before its credentials are looked at.
 */
export class Authenticator {
  constructor(private readonly options: AuthenticatorOptions) {}

  /** Throws 429 with the seconds to wait while `address` is locked out. */
  assertNotLocked(address: string | undefined): void {
    const seconds = this.options.lockout.lockedFor(address);
    if (seconds > 0) throw new LockedOutError(seconds);
  }

  /** Counts one wrong credential from `address` under `scheme`. */
  recordFailure(scheme: string, address: string | undefined): void {
    this.options.failures.labels(scheme).inc();
    if (this.options.lockout.fail(address)) this.options.lockouts.inc();
  }

  /** Whether `token` is the dashboard token (constant time). */
  tokenIsValid(token: string): boolean {
    return tokenMatches(token, this.options.tokenHash);
  }

  /** Bearer token first, then the session cookie. */
  dashboardCredentials(headers: IncomingHttpHeaders): DashboardCredentials {
    const authorization = headers.authorization;
    if (authorization !== undefined) {
      const bearer = BEARER.exec(authorization);
      // Other schemes in Authorization (Basic, …) are not dashboard credentials at all, so they are not counted.
      if (bearer) {
        return this.tokenIsValid(bearer[1])
          ? { kind: 'ok', principal: { scheme: 'dashboard', subject: 'token' } }
          : { kind: 'wrong', source: 'bearer' };
      }
    }
    const cookies = readCookies(headers.cookie, SESSION_COOKIE);
    let forged = false;
    for (const value of cookies) {
      const check = this.options.sessions.verify(value);
      if (check.state === 'valid') return { kind: 'ok', principal: { scheme: 'dashboard', subject: `session:${check.id}` } };
      // An expired session is a browser left open: answered 401 like no credentials, and not counted.
      if (check.state === 'invalid') forged = true;
    }
    return forged ? { kind: 'wrong', source: 'cookie' } : { kind: 'none' };
  }

  /**
   * Authenticates `ctx` for a route or websocket protected by `auth` (`none`, `dashboard` or a plugin scheme).
   * Returns the principal (undefined for `none`); throws 401, 429, a plugin's HttpError, or a PluginFailure.
   */
  async authenticate(auth: string, ctx: RouteContext): Promise<AuthPrincipal | undefined> {
    if (auth === 'none') return undefined;
    this.assertNotLocked(ctx.ip);
    if (auth === 'dashboard') {
      const credentials = this.dashboardCredentials(ctx.headers);
      if (credentials.kind === 'ok') return credentials.principal;
      if (credentials.kind === 'wrong') {
        this.recordFailure('dashboard', ctx.ip);
        // The cookie is cleared so a stale one (signed before a token change) counts once, not on every request.
        throw credentials.source === 'cookie'
          ? new UnauthorizedError('the dashboard session is not valid; open the dashboard link again', true)
          : unauthorized('wrong dashboard token');
      }
      throw unauthorized();
    }
    const registered = this.options.table.schemes.get(auth);
    if (!registered) throw new VigilError('VIGIL_ERR_HTTP_AUTH_SCHEME_UNKNOWN', `auth scheme "${auth}" is not registered`);
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
}
