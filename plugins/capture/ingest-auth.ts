import { createHash, timingSafeEqual } from 'node:crypto';
import { httpError, type HttpRoutes } from '@vigil/plugin-sdk';
import { CaptureErrors } from './errors.js';

/** The auth scheme of the ingest route: `Authorization: Bearer <capture.ingest_token>`. */
export const INGEST_SCHEME = 'gateway-ingest';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Registers the ingest scheme. Only the token's digest is kept, and a presented token is compared by digest in
 * constant time. No Authorization header: 401 from the control plane; a wrong token: 401 that counts towards the
 * lockout; no token configured: 403, whatever is presented (the route is off).
 */
export function registerIngestAuth(http: HttpRoutes, token: string | undefined): void {
  const expected = token === undefined ? null : digest(token);
  http.authScheme(INGEST_SCHEME, {
    openapi: { type: 'http', scheme: 'bearer', description: 'capture.ingest_token' },
    authenticate(ctx) {
      if (expected === null) {
        throw httpError(CaptureErrors.INGEST_DISABLED, 'this agent takes no records: set capture.ingest_token in its config, and give the middleware the same token');
      }
      const header = ctx.headers.authorization;
      if (header === undefined) return null;
      const bearer = BEARER.exec(header);
      if (!bearer || !timingSafeEqual(digest(bearer[1]), expected)) {
        throw httpError(CaptureErrors.INGEST_TOKEN, 'the bearer token is not this agent\'s capture.ingest_token');
      }
      return { scheme: INGEST_SCHEME, subject: 'ingest' };
    },
  });
}
