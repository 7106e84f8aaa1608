import { HttpError, VigilError } from '@vigil/plugin-sdk';

/** Stable codes of the control plane: request errors (answered as JSON) and start-up errors (thrown). */
export const HttpErrorCode = {
  NOT_FOUND: 'VIGIL_ERR_HTTP_NOT_FOUND',
  METHOD_NOT_ALLOWED: 'VIGIL_ERR_HTTP_METHOD_NOT_ALLOWED',
  UNAUTHORIZED: 'VIGIL_ERR_HTTP_UNAUTHORIZED',
  FORBIDDEN_ORIGIN: 'VIGIL_ERR_HTTP_FORBIDDEN_ORIGIN',
  CROSS_SITE: 'VIGIL_ERR_HTTP_CROSS_SITE',
  HOST_NOT_ALLOWED: 'VIGIL_ERR_HTTP_HOST_NOT_ALLOWED',
  LOCKED_OUT: 'VIGIL_ERR_HTTP_LOCKED_OUT',
  BODY_TOO_LARGE: 'VIGIL_ERR_HTTP_BODY_TOO_LARGE',
  BODY_ABORTED: 'VIGIL_ERR_HTTP_BODY_ABORTED',
  UNSUPPORTED_MEDIA_TYPE: 'VIGIL_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE',
  INVALID_JSON: 'VIGIL_ERR_HTTP_INVALID_JSON',
  INVALID_BODY: 'VIGIL_ERR_HTTP_INVALID_BODY',
  INVALID_QUERY: 'VIGIL_ERR_HTTP_INVALID_QUERY',
  TOKEN_IN_QUERY: 'VIGIL_ERR_HTTP_TOKEN_IN_QUERY',
  BAD_REQUEST: 'VIGIL_ERR_HTTP_BAD_REQUEST',
  INTERNAL: 'VIGIL_ERR_HTTP_INTERNAL',
  UNAVAILABLE: 'VIGIL_ERR_HTTP_UNAVAILABLE',
  // Thrown while plugins register or the server starts.
  ROUTE_CONFLICT: 'VIGIL_ERR_HTTP_ROUTE_CONFLICT',
  ROUTE_INVALID: 'VIGIL_ERR_HTTP_ROUTE_INVALID',
  AUTH_SCHEME_UNKNOWN: 'VIGIL_ERR_HTTP_AUTH_SCHEME_UNKNOWN',
  AUTH_SCHEME_CONFLICT: 'VIGIL_ERR_HTTP_AUTH_SCHEME_CONFLICT',
  LISTEN: 'VIGIL_ERR_HTTP_LISTEN',
  TLS: 'VIGIL_ERR_HTTP_TLS',
  TOKEN_FILE: 'VIGIL_ERR_HTTP_TOKEN_FILE',
  TOKEN_EMPTY: 'VIGIL_ERR_HTTP_TOKEN_EMPTY',
  OPTIONS: 'VIGIL_ERR_HTTP_OPTIONS',
} as const;

/** A 400 from schema validation; `path` is the key path of the offending value, e.g. `body.rules[2].name`. */
export class ValidationError extends HttpError {
  readonly path: string;
  constructor(code: string, message: string, path: string) {
    super(400, code, message);
    this.path = path;
  }
}

/** A 429 while an address is locked out; `retryAfterSeconds` becomes the Retry-After header. */
export class LockedOutError extends HttpError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(429, HttpErrorCode.LOCKED_OUT,
      `too many failed authentication attempts from this address; retry in ${retryAfterSeconds} s`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A 405 carrying the methods the path does accept, for the Allow header. */
export class MethodNotAllowedError extends HttpError {
  readonly allow: string[];
  constructor(method: string, path: string, allow: string[]) {
    super(405, HttpErrorCode.METHOD_NOT_ALLOWED, `${method} is not allowed on ${path}; allowed: ${allow.join(', ')}`);
    this.allow = allow;
  }
}

/** Wraps what a plugin's route handler or auth scheme threw, so the control plane can blame the right plugin. */
export class PluginFailure extends Error {
  constructor(readonly plugin: string, readonly where: string, override readonly cause: unknown) {
    super(`${where} of plugin "${plugin}" failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'PluginFailure';
  }
}

/** A 401. `clearSession` asks the browser to drop a session cookie that no longer verifies (e.g. after a token change). */
export class UnauthorizedError extends HttpError {
  constructor(message: string, readonly clearSession = false) {
    super(401, HttpErrorCode.UNAUTHORIZED, message);
  }
}

export const unauthorized = (message = 'authentication required: send "Authorization: Bearer <token>", open the dashboard link, or log in at /login'): UnauthorizedError =>
  new UnauthorizedError(message);

/** A 403 for a request a page on another site could have sent: its credentials are not even looked at. */
export const crossSite = (what: string): HttpError =>
  new HttpError(403, HttpErrorCode.CROSS_SITE,
    `${what} is refused: the request says it comes from another site (Sec-Fetch-Site or Origin), and a page there must not ` +
    'act with your credentials; open the dashboard by typing its address, or send "Authorization: Bearer <token>" from a script');

/** A 403 for a request that needs proof of coming from the dashboard's own pages and has none. */
export const sameOriginRequired = (what: string): HttpError =>
  new HttpError(403, HttpErrorCode.FORBIDDEN_ORIGIN,
    `${what} needs proof that it comes from the dashboard's own page (an Origin header equal to the control plane's, or ` +
    '"Sec-Fetch-Site: same-origin"); scripts send "Authorization: Bearer <token>" instead of the session cookie');

/** A 421 for a Host this control plane does not answer to, refused before anything else (DNS rebinding). */
export const hostNotAllowed = (message: string): HttpError => new HttpError(421, HttpErrorCode.HOST_NOT_ALLOWED, message);

export const notFound = (method: string, path: string): HttpError =>
  new HttpError(404, HttpErrorCode.NOT_FOUND, `no route for ${method} ${path}; GET /api lists the routes`);

export const bodyTooLarge = (limit: number): HttpError =>
  new HttpError(413, HttpErrorCode.BODY_TOO_LARGE, `request body exceeds the limit of ${limit} bytes`);

export function controlPlaneError(code: string, message: string, cause?: unknown): VigilError {
  return new VigilError(code, message, cause === undefined ? undefined : { cause });
}
