import { httpError, type HttpRoutes } from '@vigil/plugin-sdk';
import { FleetErrors } from './errors.js';
import type { ReadTokenStore } from './read-tokens.js';

/** The scheme of the read API: a read token in `X-Fleet-Token`, never the dashboard's token or session. */
export const FLEET_READ_SCHEME = 'fleet-read';
export const FLEET_TOKEN_HEADER = 'x-fleet-token';

/**
 * Registers the read-token scheme. No header: 401 from the control plane. A wrong token: a 401 that counts towards
 * the control plane's lockout (a page on another site cannot set this header, so it cannot spend the lockout).
 */
export function registerReadAuth(http: HttpRoutes, tokens: ReadTokenStore): void {
  http.authScheme(FLEET_READ_SCHEME, {
    openapi: { type: 'apiKey', in: 'header', name: 'X-Fleet-Token', description: 'A fleet read token (Host → Fleet → Read tokens): reads the host overview, nothing else.' },
    async authenticate(ctx) {
      const header = ctx.headers[FLEET_TOKEN_HEADER];
      if (typeof header !== 'string' || header === '') return null;
      const id = await tokens.verify(header.trim());
      if (id === undefined) throw httpError(FleetErrors.READ_TOKEN, 'the X-Fleet-Token is not a read token of this instance (wrong, or revoked)');
      return { scheme: FLEET_READ_SCHEME, subject: id };
    },
  });
}
