// A real OpenID Connect provider for the single sign-on suites: `oidc-provider` 8 on loopback, in the test's
// process, with its development login form (any password; the login names an account below) and consent page.
// `tamper` makes its token endpoint answer with an ID token it signed for another audience, or one that expired,
// as a misconfigured or replaying provider would: the relying party must refuse both.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, decodeJwt, SignJWT, importJWK, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface IdpAccount { email: string; groups: string[]; name?: string; emailVerified?: boolean }

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the token endpoint does to the ID token it issues: nothing, another audience, or an expiry in the past. */
  tamper: 'audience' | 'expired' | null;
  /** Token requests the provider answered, by outcome (`ok` or the OAuth error). */
  tokenAnswers: string[];
  close(): Promise<void>;
}

const plainPage = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

/** Starts the provider; `redirectUri` and `postLogoutUri` are the relying party's, registered for its one client. */
export async function startTestIdp(o: { accounts: Record<string, IdpAccount>; redirectUri: string; postLogoutUri: string }): Promise<TestIdp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-idp-key', alg: 'RS256', use: 'sig' } as JWK;
  const signingKey = await importJWK(jwk, 'RS256');
  const clientId = 'vigil-dashboard';
  const clientSecret = 'test-idp-client-secret-0123456789abcdef';
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId, client_secret: clientSecret, redirect_uris: [o.redirectUri], post_logout_redirect_uris: [o.postLogoutUri],
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
    }],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-idp-cookie-key-0123456789'] },
    // Email and groups in the ID token itself, as Okta, Entra ID and Keycloak can be configured to send them.
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: { body: unknown }, form: string) => { ctx.body = plainPage('Sign out of the test IdP?', `${form}<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>`); },
        postLogoutSuccessSource: async (ctx: { body: unknown }) => { ctx.body = plainPage('Signed out', ''); },
      },
    },
    async findAccount(_ctx, id) {
      const account = o.accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: account.email, email_verified: account.emailVerified ?? true, groups: account.groups, name: account.name ?? id }),
      };
    },
  });
  const idp: TestIdp = {
    issuer, clientId, clientSecret, tamper: null, tokenAnswers: [],
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== '/token' || ctx.method !== 'POST') return;
    const body = ctx.body as { id_token?: string; error?: string } | undefined;
    idp.tokenAnswers.push(body?.error ?? (body?.id_token ? 'ok' : String(ctx.status)));
    if (!body?.id_token || idp.tamper === null) return;
    const claims = decodeJwt(body.id_token);
    const now = Math.floor(Date.now() / 1000);
    const changed = idp.tamper === 'audience' ? { ...claims, aud: 'another-application' } : { ...claims, iat: now - 7200, exp: now - 3600 };
    body.id_token = await new SignJWT(changed).setProtectedHeader({ alg: 'RS256', kid: 'test-idp-key', typ: 'JWT' }).sign(signingKey);
  });
  server.on('request', provider.callback());
  return idp;
}
