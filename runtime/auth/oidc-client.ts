import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import type { Logger } from '@vigil/plugin-sdk';
import type { StoreBackend } from '../store/index.js';

/** `control_plane.oidc`, resolved: the secret read from the environment. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Undefined: a public client, which proves itself with PKCE only. */
  clientSecret?: string;
  redirectUrl: string;
  providerName: string;
  scopes: readonly string[];
}

/** How long a started sign-in may take at the provider, in ms. */
export const SIGN_IN_TTL_MS = 10 * 60 * 1000;
/** Sign-ins under way at most (rows of vigil_oidc_logins): anyone can start one, so the table has a cap. */
export const PENDING_SIGN_INS_LIMIT = 10_000;
/** How long a failed discovery is remembered before the provider is asked again, in ms. */
const DISCOVERY_RETRY_MS = 10_000;

const hashState = (state: string): string => createHash('sha256').update(`vigil oidc state\0${state}`, 'utf8').digest('hex');

/** Loopback issuers (a test IdP, a provider on the same host) may speak plain HTTP; any other must use HTTPS. */
function isLoopback(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

export class SignInError extends Error {}

/**
 * The relying party: discovery (cached), starting a sign-in (state, nonce and a PKCE verifier kept in the store, so
 * the callback may reach any process sharing it), and finishing one with openid-client, which checks the state, the
 * code exchange, and the ID token's signature, issuer, audience, nonce and expiry.
 */
export class OidcRelyingParty {
  private config: Promise<client.Configuration> | undefined;
  private failedAt = 0;

  constructor(readonly settings: OidcSettings, private readonly store: StoreBackend, private readonly options: { log?: Logger; now?: () => number } = {}) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The provider's configuration, discovered once; a failure is retried after DISCOVERY_RETRY_MS. */
  discover(): Promise<client.Configuration> {
    if (this.config && this.failedAt && this.now() - this.failedAt >= DISCOVERY_RETRY_MS) this.config = undefined;
    this.config ??= (async () => {
      const issuer = new URL(this.settings.issuer);
      const s = this.settings;
      try {
        const found = await client.discovery(issuer, s.clientId, s.clientSecret === undefined ? { token_endpoint_auth_method: 'none' } : s.clientSecret,
          s.clientSecret === undefined ? client.None() : undefined,
          isLoopback(issuer) && issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 });
        this.failedAt = 0;
        return found;
      } catch (err) {
        this.failedAt = this.now();
        this.options.log?.warn('oidc: discovery failed', { issuer: s.issuer, err: err as Error });
        throw err;
      }
    })();
    return this.config;
  }

  /** Starts a sign-in: resolves with the provider's authorisation URL and the state the browser must bring back. */
  async start(next: string): Promise<{ url: URL; state: string }> {
    const config = await this.discover();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    const now = this.now();
    await this.store.run('DELETE FROM vigil_oidc_logins WHERE expires_at < ?', [now]);
    // A conditional insert: the cap holds without a read-then-write race inside one database.
    const { changes } = await this.store.run(
      'INSERT INTO vigil_oidc_logins (state_hash, verifier, nonce, next, expires_at) SELECT ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM vigil_oidc_logins) < ?',
      [hashState(state), verifier, nonce, next, now + SIGN_IN_TTL_MS, PENDING_SIGN_INS_LIMIT]);
    if (changes !== 1) throw new SignInError(`too many sign-ins are under way (${PENDING_SIGN_INS_LIMIT}); try again in a few minutes`);
    const scopes = new Set(['openid', ...this.settings.scopes]);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUrl,
      scope: [...scopes].join(' '),
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    return { url, state };
  }

  /**
   * Finishes the sign-in that `state` names, with the provider's answer `query` (the callback's query string). The
   * stored sign-in is deleted first, so a replayed answer finds nothing. Resolves with the ID token's claims and the
   * `next` path; throws SignInError with what failed.
   */
  async finish(state: string, query: string): Promise<{ claims: Record<string, unknown>; next: string; idToken: string | undefined }> {
    const config = await this.discover();
    const rows = await this.store.query<{ verifier: string; nonce: string; next: string; expires_at: number }>(
      'DELETE FROM vigil_oidc_logins WHERE state_hash = ? RETURNING verifier, nonce, next, expires_at', [hashState(state)]);
    if (rows.length === 0) throw new SignInError('this sign-in is unknown or was used already; start again');
    const pending = rows[0];
    if (Number(pending.expires_at) < this.now()) throw new SignInError('this sign-in took longer than 10 minutes; start again');
    const current = new URL(this.settings.redirectUrl);
    current.search = query;
    let tokens;
    try {
      tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: pending.verifier, expectedState: state, expectedNonce: pending.nonce, idTokenExpected: true,
      });
    } catch (err) {
      throw new SignInError(describeGrantError(err));
    }
    const claims = tokens.claims();
    if (!claims) throw new SignInError('the identity provider sent no ID token');
    return { claims: claims as Record<string, unknown>, next: pending.next, idToken: tokens.id_token };
  }

  /** Where a signed-in OIDC user is sent to end their session at the provider too, when it offers that. */
  async endSessionUrl(postLogout: string): Promise<URL | null> {
    try {
      const config = await this.discover();
      if (!config.serverMetadata().end_session_endpoint) return null;
      return client.buildEndSessionUrl(config, { client_id: this.settings.clientId, post_logout_redirect_uri: postLogout });
    } catch {
      return null;
    }
  }
}

/** One line for the page and the audit log: the provider's own error, or the check that failed. */
function describeGrantError(err: unknown): string {
  const e = err as { error?: string; error_description?: string; message?: string; code?: string };
  if (typeof e.error === 'string') return `the identity provider refused: ${e.error}${e.error_description ? ` (${e.error_description})` : ''}`;
  // openid-client wraps oauth4webapi's errors: the innermost message is the specific one, and a `claim` names the
  // claim of the ID token that failed (aud, exp, nonce, iss).
  let message = e.message ?? String(err);
  let claim: string | undefined;
  let at: unknown = err;
  for (let depth = 0; depth < 5 && at && typeof at === 'object'; depth++) {
    const link = at as { message?: unknown; claim?: unknown; cause?: unknown };
    if (typeof link.message === 'string' && link.message !== '') message = link.message;
    if (typeof link.claim === 'string') claim = link.claim;
    at = link.cause;
  }
  return `the identity provider's answer failed a check: ${message}${claim ? ` (the ID token's "${claim}" claim)` : ''}`;
}
