import type { OidcConfig } from '../core-config.js';
import { controlPlaneError, HttpErrors } from '../http/errors.js';
import { OIDC_CALLBACK_PATH } from '../http/login-paths.js';
import type { OidcSettings } from './oidc-client.js';
import type { SignInPolicy } from './oidc-sign-in.js';

/**
 * `control_plane.oidc` as the control plane takes it: the client secret read from the environment variable the file
 * names (the file never holds it). Throws a start-up error naming the key when it cannot work.
 */
export function resolveOidc(c: OidcConfig, env: NodeJS.ProcessEnv = process.env): { settings: OidcSettings; policy: SignInPolicy } {
  let clientSecret: string | undefined;
  if (c.client_secret_env !== undefined) {
    clientSecret = env[c.client_secret_env];
    if (!clientSecret) {
      throw controlPlaneError(HttpErrors.OIDC_CONFIG, `control_plane.oidc.client_secret_env names ${c.client_secret_env}, which is unset or ` +
        'empty in Vigil\'s environment; set it to the client secret the identity provider gave, or remove the key for a public client');
    }
  }
  if (new URL(c.redirect_url).pathname !== OIDC_CALLBACK_PATH) {
    throw controlPlaneError(HttpErrors.OIDC_CONFIG, `control_plane.oidc.redirect_url ${JSON.stringify(c.redirect_url)} must be the ` +
      `control plane's public URL followed by ${OIDC_CALLBACK_PATH}, e.g. https://vigil.example.com${OIDC_CALLBACK_PATH}`);
  }
  return {
    settings: {
      issuer: c.issuer, clientId: c.client_id, clientSecret, redirectUrl: c.redirect_url, providerName: c.provider_name, scopes: c.scopes,
    },
    policy: {
      allowedDomains: c.allowed_domains,
      allowedGroups: c.allowed_groups,
      groupsClaim: c.groups_claim,
      roleClaim: c.role_claim ?? c.groups_claim,
      roleMap: c.role_map,
      defaultRole: c.default_role === 'none' ? null : c.default_role,
    },
  };
}
