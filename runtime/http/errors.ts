import { defineErrorCodes, HttpError, httpError, statusOf, VigilError, type ErrorCodeOf } from '@vigil/plugin-sdk';

/**
 * Codes of the control plane: request errors, answered as `{ "error": { "code", "message" } }` with the status of
 * their entry, and start-up errors, thrown while plugins register routes or the server starts.
 */
export const HttpErrors = defineErrorCodes('HTTP', {
  NOT_FOUND: {
    status: 404,
    meaning: 'No route answers this method and path, or no websocket is at this path.',
    action: 'Check the URL; `GET /api` lists every route (OpenAPI). A plugin\'s routes exist only while its section is in ' +
      'the config.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: 'The path exists, but not for this method.',
    action: 'Use one of the methods in the Allow header.',
  },
  UNAUTHORIZED: {
    status: 401,
    meaning: 'The route needs credentials and the request has none, or wrong ones: a wrong dashboard token, a session ' +
      'cookie whose session ended (logged out, ended by an admin, the token changed) or expired, a wrong key of a plugin\'s ' +
      'scheme.',
    action: 'Send `Authorization: Bearer <token>` (the token printed at first start, or control_plane.token), open the ' +
      'dashboard link, or log in at /login. Wrong credentials count towards the lockout; see docs/security.md.',
  },
  FORBIDDEN_ORIGIN: {
    status: 403,
    meaning: 'A state-changing request authenticated by the session cookie, or a websocket upgrade, has no proof it ' +
      'comes from the dashboard\'s own page (an Origin equal to the control plane\'s, or Sec-Fetch-Site: same-origin).',
    action: 'Scripts: send `Authorization: Bearer <token>` instead of the cookie. Behind a proxy that changes the scheme or ' +
      'host, see "Known limits" in docs/security.md.',
  },
  CROSS_SITE: {
    status: 403,
    meaning: 'A request that needs credentials says it comes from another site (Sec-Fetch-Site, Origin or Referer), ' +
      'so its credentials were not read and it does not count towards the lockout.',
    action: 'Open the dashboard by typing its address or from a bookmark, not from a link on another site; scripts send ' +
      '`Authorization: Bearer <token>`. See docs/security.md.',
  },
  HOST_NOT_ALLOWED: {
    status: 421,
    meaning: 'The request\'s Host names a host this control plane does not answer to (protection against DNS ' +
      'rebinding), or is repeated or malformed.',
    action: 'Add the name you reach the dashboard by to `control_plane.allowed_hosts`; see docs/security.md.',
  },
  LOCKED_OUT: {
    status: 429,
    meaning: 'Too many wrong credentials from this address within `control_plane.lockout.window` (default: 20 in 10 ' +
      'minutes).',
    action: 'Wait the Retry-After seconds, then use the right token; an open dashboard session keeps working. See ' +
      'docs/security.md.',
  },
  BODY_TOO_LARGE: {
    status: 413,
    meaning: 'The request body is larger than `control_plane.body_limit`.',
    action: 'Send a smaller body, or raise `control_plane.body_limit`.',
  },
  BODY_ABORTED: {
    status: 400,
    meaning: 'The request body ended before it was complete: the client or a proxy closed the connection.',
    action: 'Send the request again; if it repeats, look at what cuts the upload (a proxy\'s limit or timeout).',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    meaning: 'The body\'s Content-Type is not what the route takes: JSON for the API, ' +
      'application/x-www-form-urlencoded for the login form.',
    action: 'Send the body with `Content-Type: application/json` (UTF-8).',
  },
  INVALID_JSON: {
    status: 400,
    meaning: 'The request body is not UTF-8, or not valid JSON.',
    action: 'Fix the body; the message carries the parser\'s complaint.',
  },
  INVALID_BODY: {
    status: 400,
    meaning: 'The JSON body does not match the route\'s schema (a missing field, a wrong type, an unknown key); the ' +
      'message names the key path.',
    action: 'Fix the field named in the message; `GET /api` shows each route\'s body schema.',
  },
  INVALID_QUERY: {
    status: 400,
    meaning: 'A query parameter does not match the route\'s schema; the message names it.',
    action: 'Fix the parameter named in the message; `GET /api` shows each route\'s parameters.',
  },
  TOKEN_IN_QUERY: {
    status: 400,
    meaning: 'The dashboard token was sent in a URL (?token=) anywhere but `GET /`; it is refused unread and never ' +
      'counts as a failure.',
    action: 'Scripts: send `Authorization: Bearer <token>`; people: open the dashboard link (`/?token=…`) or log in at ' +
      '/login.',
  },
  BAD_REQUEST: {
    status: 400,
    meaning: 'The request is malformed: an empty token on the login form, a form that is not UTF-8, or a request the ' +
      'HTTP layer refused.',
    action: 'Fix the request as the message says.',
  },
  INTERNAL: {
    status: 500,
    meaning: 'Something failed inside Vigil or a plugin while answering; the client gets a generic message, the log ' +
      'gets the details under a request id.',
    action: 'Find the request id in the log: the entry names the plugin that failed and the cause. Report a bug with those ' +
      'lines.',
  },
  UNAVAILABLE: {
    status: 503,
    meaning: 'The control plane is shutting down and takes no new websocket connections.',
    action: 'Reconnect once Vigil is running again.',
  },
  ROUTE_CONFLICT: {
    meaning: 'At start-up, two plugins (or one, twice) registered the same method and path, or the same websocket path.',
    action: 'Enable only one of the plugins named in the message; plugin authors: put routes under `/api/<plugin>/`.',
  },
  ROUTE_INVALID: {
    meaning: 'At start-up, a plugin registered a route, websocket or auth scheme with a bad definition (an unknown method, a ' +
      'path not starting with /, no handler, no summary, a scheme without authenticate() or openapi).',
    action: 'Plugin authors: fix the definition the message names; operators: report it to the plugin\'s author.',
  },
  AUTH_SCHEME_UNKNOWN: {
    meaning: 'At start-up, a route or websocket uses an auth scheme that no enabled plugin registered.',
    action: 'Enable the plugin that registers the scheme; plugin authors: use `dashboard`, `none`, or a scheme registered ' +
      'with `http.authScheme`.',
  },
  AUTH_SCHEME_CONFLICT: {
    meaning: 'At start-up, a plugin registered an auth scheme whose name is malformed, reserved (dashboard, none) or ' +
      'already registered by another plugin.',
    action: 'Plugin authors: choose another name (letters, digits, _ . -, starting with a letter); operators: enable only ' +
      'one of the two plugins.',
  },
  LISTEN: {
    meaning: 'The control plane cannot listen on `control_plane.listen`: the address is in use (another vigil?), the port ' +
      'needs privileges, no interface has the address, or the value is not an address.',
    action: 'Set `control_plane.listen` to a free address you may bind (127.0.0.1:9095, :9095), or stop the other process.',
  },
  TLS: {
    meaning: '`control_plane.tls` names a certificate or key that cannot be read, or that cannot be used (not PEM, or a key ' +
      'that does not match the certificate).',
    action: 'Point `cert_file` and `key_file` at readable PEM files, the key matching the certificate.',
  },
  TOKEN_FILE: {
    meaning: 'A file in data_dir that the control plane keeps (token.sha256, the dashboard token\'s hash) is malformed or ' +
      'cannot be created.',
    action: 'Check that data_dir is writable; delete the file the message names to have a new token made and printed (open ' +
      'sessions end), or set `control_plane.token`.',
  },
  ROLE_REQUIRED: {
    status: 403,
    meaning: 'The signed-in user\'s role is below what the route needs: `viewer` reads, `member` also runs evals and ' +
      'reruns, `admin` changes a project\'s keys, settings and members, `owner` changes instance-wide settings and users.',
    action: 'Ask an owner to raise your role (Settings > Users), in the project the message names or on the instance. ' +
      'See "Roles" in docs/security.md.',
  },
  USER_NOT_FOUND: {
    status: 404,
    meaning: 'No dashboard user has this id.',
    action: 'List the users with `GET /api/users` and use an `id` from there.',
  },
  USER_EXISTS: {
    status: 409,
    meaning: 'A dashboard user with this email exists already.',
    action: 'Change the existing user\'s roles instead (`PATCH /api/users/{id}`), or use another email.',
  },
  USER_NOT_LOCAL: {
    status: 409,
    meaning: 'A password was asked for a user who signs in with single sign-on (OIDC).',
    action: 'Passwords are for local users only; an OIDC user\'s password is kept by the identity provider.',
  },
  SIGN_IN_REFUSED: {
    status: 403,
    meaning: 'A single sign-on (OIDC) sign-in did not complete: the identity provider answered with an error, the answer ' +
      'failed a check (state, PKCE, audience, nonce, expiry, signature), the sign-in was not started in this browser or ' +
      'was used already, or the user is outside the allowed email domains and groups, or disabled.',
    action: 'Start the sign-in again from /login. If it repeats, the message names the check; see "Single sign-on" in ' +
      'docs/security.md.',
  },
  OIDC_UNAVAILABLE: {
    status: 503,
    meaning: 'The identity provider of `control_plane.oidc.issuer` could not be reached, or its discovery document is not ' +
      'usable.',
    action: 'Check that the issuer URL is right and reachable from the Vigil host; meanwhile log in with the dashboard ' +
      'token.',
  },
  OIDC_CONFIG: {
    meaning: 'At start-up, `control_plane.oidc` cannot work: the environment variable named by `client_secret_env` is ' +
      'unset, or the redirect URL does not end in /auth/oidc/callback.',
    action: 'Set the variable in the environment Vigil runs in (the secret never goes in the file), and make `redirect_url` ' +
      'the control plane\'s public URL followed by /auth/oidc/callback.',
  },
  SESSION_NOT_FOUND: {
    status: 404,
    meaning: '`DELETE /api/sessions/{id}` names no open dashboard session: it ended already (logged out, ended, ' +
      'expired) or the id is not one `GET /api/sessions` lists.',
    action: 'List the open sessions with `GET /api/sessions` and use an `id` from there.',
  },
  TOKEN_EMPTY: {
    meaning: '`control_plane.token` holds only white space (an empty or absent token means: generate one).',
    action: 'Set a token (e.g. from an environment variable: `token: ${VIGIL_TOKEN}`), or leave the key out to have one ' +
      'generated on first run.',
  },
  OPTIONS: {
    meaning: 'The control plane got options that cannot work: a `control_plane.allowed_hosts` entry that is not a host name ' +
      'or IP address, or (from code embedding the runtime) a bad body limit, lockout or token hash.',
    action: 'Write allowed_hosts entries as bare names or addresses (vigil.example.com, 192.168.1.5), without scheme or ' +
      'port; anything else the message names is a bug to report.',
  },
});

// The subclasses below carry more than httpError makes; their status too comes from the entry above (statusOf), and
// the `!` holds because every code they use has one.

/** A 400 from schema validation; `path` is the key path of the offending value, e.g. `body.rules[2].name`. */
export class ValidationError extends HttpError {
  readonly path: string;
  constructor(code: typeof HttpErrors.INVALID_BODY | typeof HttpErrors.INVALID_QUERY, message: string, path: string) {
    super(statusOf(code)!, code, message);
    this.path = path;
  }
}

/** A 429 while an address is locked out; `retryAfterSeconds` becomes the Retry-After header. */
export class LockedOutError extends HttpError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(statusOf(HttpErrors.LOCKED_OUT)!, HttpErrors.LOCKED_OUT,
      `too many failed authentication attempts from this address; retry in ${retryAfterSeconds} s`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A 405 carrying the methods the path does accept, for the Allow header. */
export class MethodNotAllowedError extends HttpError {
  readonly allow: string[];
  constructor(method: string, path: string, allow: string[]) {
    super(statusOf(HttpErrors.METHOD_NOT_ALLOWED)!, HttpErrors.METHOD_NOT_ALLOWED, `${method} is not allowed on ${path}; allowed: ${allow.join(', ')}`);
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
    super(statusOf(HttpErrors.UNAUTHORIZED)!, HttpErrors.UNAUTHORIZED, message);
  }
}

export const unauthorized = (message = 'authentication required: send "Authorization: Bearer <token>", open the dashboard link, or log in at /login'): UnauthorizedError =>
  new UnauthorizedError(message);

/** A 403 for a request a page on another site could have sent: its credentials are not even looked at. */
export const crossSite = (what: string): HttpError =>
  httpError(HttpErrors.CROSS_SITE,
    `${what} is refused: the request says it comes from another site (Sec-Fetch-Site or Origin), and a page there must not ` +
    'act with your credentials; open the dashboard by typing its address, or send "Authorization: Bearer <token>" from a script');

/** A 403 for a request that needs proof of coming from the dashboard's own pages and has none. */
export const sameOriginRequired = (what: string): HttpError =>
  httpError(HttpErrors.FORBIDDEN_ORIGIN,
    `${what} needs proof that it comes from the dashboard's own page (an Origin header equal to the control plane's, or ` +
    '"Sec-Fetch-Site: same-origin"); scripts send "Authorization: Bearer <token>" instead of the session cookie');

/** A 421 for a Host this control plane does not answer to, refused before anything else (DNS rebinding). */
export const hostNotAllowed = (message: string): HttpError => httpError(HttpErrors.HOST_NOT_ALLOWED, message);

export const notFound = (method: string, path: string): HttpError =>
  httpError(HttpErrors.NOT_FOUND, `no route for ${method} ${path}; GET /api lists the routes`);

export const bodyTooLarge = (limit: number): HttpError =>
  httpError(HttpErrors.BODY_TOO_LARGE, `request body exceeds the limit of ${limit} bytes`);

export function controlPlaneError(code: ErrorCodeOf<typeof HttpErrors>, message: string, cause?: unknown): VigilError {
  return new VigilError(code, message, cause === undefined ? undefined : { cause });
}
