import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { JsonSchema } from './json-schema.js';
import type { ResponseBody } from './response-body.js';

/** Who made an authenticated request. */
export interface AuthPrincipal {
  /** The scheme that accepted the credentials: `dashboard`, or a plugin's scheme name. */
  scheme: string;
  /** Scheme-specific identity, e.g. a project id for project keys. */
  subject?: string;
  /** Under the `dashboard` scheme: the user, and their roles. */
  user?: DashboardUser;
  [key: string]: unknown;
}

/**
 * What a route handler receives. Structurally a subset of Koa's context, so handlers can also be tested with a
 * plain object.
 */
export interface RouteContext {
  readonly method: string;
  readonly path: string;
  readonly url: string;
  readonly ip: string;
  readonly headers: IncomingHttpHeaders;
  /** Path parameters (`/records/:id`). */
  params: Record<string, string>;
  /** Query parameters; validated and coerced when the route declares `query`. */
  query: Record<string, unknown>;
  /** `request.body` is the parsed JSON body (validated when the route declares `body`), or a Buffer with `rawBody`. */
  readonly request: { body?: unknown };
  status: number;
  body: unknown;
  type: string;
  set(field: string, value: string | string[]): void;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /**
   * Per-request state. `audit_detail`: one line a handler of a change sets for its audit log entry (which pid was
   * signalled, which capture started), written with the answer's status, whatever it was (at most 512 characters).
   */
  readonly state: { auth?: AuthPrincipal; audit_detail?: string; [key: string]: unknown };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Roles of dashboard users, least first (docs/security.md, "Roles"): in an LLM project `viewer` reads, `member` also
 * runs evals and reruns, `admin` also changes keys, settings and members; the instance `owner` manages users and
 * instance-wide settings. The dashboard token is the owner.
 */
export type DashboardRole = 'viewer' | 'member' | 'admin' | 'owner';

/** Who a signed-in dashboard principal is: the user (null for the dashboard token) and what they hold. */
export interface DashboardUser {
  /** vigil_users.id; null for the dashboard token (the break-glass owner). */
  id: string | null;
  /** The user's email; null for the dashboard token. */
  email: string | null;
  /** The instance role (also the role in every project), or null. */
  instanceRole: DashboardRole | null;
  /** Roles granted per LLM project, which can only raise the instance role there. */
  projects: Readonly<Record<string, Exclude<DashboardRole, 'owner'>>>;
}

interface RouteFields {
  method: HttpMethod;
  /** Absolute path, Koa-router style parameters: `/api/gateway/records/:id`. */
  path: string;
  /** `dashboard` (default), `none`, or a scheme registered with `authScheme`. */
  auth?: string;
  /**
   * With the `dashboard` auth: the least role the caller needs (docs/security.md, "Roles"). Default: `viewer` for GET;
   * for other methods `admin` on a project's route (see `projectParam`) and `owner` on any other route. Declare a lower
   * role only where it is meant, e.g. `member` on a route that runs an eval. `signed-in`: any dashboard user, whatever
   * their roles (the dashboard's HTML pages and who-am-I, so a user with roles in some projects only can open the
   * dashboard; what the page then reads checks its own role). Other schemes ignore it.
   */
  role?: DashboardRole | 'signed-in';
  /**
   * The path parameter that names the LLM project the route acts on, so the role is checked in that project. Default:
   * a parameter named `project`, else one that follows a `projects` segment (`/api/llm/projects/:name/...`). `null`: the
   * route is instance-wide even so.
   */
  projectParam?: string | null;
  /** One line for the OpenAPI listing. */
  summary: string;
  description?: string;
  tags?: string[];
  /** Validated (with type coercion) before the handler; unknown parameters are rejected. */
  query?: JsonSchema;
  /** Validated JSON request body; 400 with the key path when invalid. */
  body?: JsonSchema;
  /** Request body limit in bytes; default `control_plane.body_limit`. Larger bodies get 413. */
  bodyLimit?: number;
  /** Hand the handler the body as a Buffer, unparsed (for protobuf and other binary payloads). */
  rawBody?: boolean;
  /**
   * For HTML pages of the dashboard: a GET or HEAD that carries no valid session answers 302 to
   * `/login?next=<this path and query>` instead of 401, so a person lands on the login form and comes back here.
   */
  loginRedirect?: boolean;
  /** A returned value other than undefined becomes the JSON response body. Throw `httpError(code, …)` for error statuses. */
  handler(ctx: RouteContext): unknown | Promise<unknown>;
}

/** A route with one success status. */
interface OneResponse {
  /**
   * What the route answers with on success: a JSON Schema (give shared shapes a PascalCase `title`, and closed objects
   * `additionalProperties: false`), or a marker such as `HTML_BODY` or `NO_BODY` for answers that are not JSON.
   * Errors need no declaration: every route answers them in the one shape the runtime documents. With
   * VIGIL_VALIDATE_RESPONSES=1 (the test runs) every JSON answer is checked against it.
   */
  response: ResponseBody;
  /** The success status. Default 200 (204 when the handler answers no body). */
  status?: number;
  responses?: never;
}

/** A route with several success statuses (e.g. 200 and 304, or 200 and 202). */
interface SeveralResponses {
  /** What the route answers with, per status it answers with on success (or with a body of its own, like 503 on health). */
  responses: Record<number, ResponseBody>;
  response?: never;
  status?: never;
}

export type RouteDefinition = RouteFields & (OneResponse | SeveralResponses);

export interface AuthScheme {
  /**
   * Returns the principal, or null when the request carries none of this scheme's credentials (the route then
   * answers 401). Throw `httpError(code, …)` with a 401 code for wrong credentials: the runtime counts them towards the lockout.
   * Read credentials from a header a page cannot set (not the query string, not a cookie), or a page could spend
   * the lockout; requests marked cross-site never reach a scheme (docs/security.md).
   */
  authenticate(ctx: RouteContext): AuthPrincipal | null | Promise<AuthPrincipal | null>;
  /** An OpenAPI security scheme object, e.g. `{ type: 'apiKey', in: 'header', name: 'X-Service-Project-Key' }`. */
  openapi: Record<string, unknown>;
}

/**
 * A websocket endpoint. Upgrades must name an allowed Host and come from the control plane's own origin (also with
 * `auth: 'none'`), and are then authenticated like routes.
 */
export interface WebSocketRoute {
  path: string;
  auth?: string;
  /** With the `dashboard` auth: the least role the caller needs on the instance. Default `owner` (a terminal is a shell). */
  role?: DashboardRole;
  summary: string;
  /** `socket` is a `ws` WebSocket. */
  handler(socket: import('ws').WebSocket, request: IncomingMessage, principal: AuthPrincipal | undefined): void;
}

/** An action a plugin records in the audit log itself, when its outcome is known only after the request (a job). */
export interface PluginAuditEntry {
  /** Who asked: the route's `ctx.state.auth` (none: the entry's actor is `vigil`). */
  principal: AuthPrincipal | undefined;
  /** What was done, e.g. `host package-upgrade`. */
  action: string;
  /** What it was done to (at most 512 characters kept). */
  target: string;
  /** The outcome as an HTTP status: 200 done, 4xx refused, 5xx failed. */
  status: number;
  address?: string | null;
  /** One line of outcome (exit status, duration), at most 512 characters kept. Never a secret. */
  detail?: string | null;
}

export interface HttpRoutes {
  route(definition: RouteDefinition): void;
  /** Writes an entry to the audit log (`GET /api/audit`); does nothing when the runtime keeps none (no store). */
  audit(entry: PluginAuditEntry): Promise<void>;
  /**
   * Calls `onEnd` once when the dashboard session `principal` came with ends (logout, an admin, expiry, a token
   * change): for state a plugin keeps per session and must drop with it. A principal without a session (the bearer
   * token, another scheme) never ends. Returns a release that stops the watch.
   */
  whenSessionEnds(principal: AuthPrincipal | undefined, onEnd: () => void): () => void;
  authScheme(name: string, scheme: AuthScheme): void;
  websocket(definition: WebSocketRoute): void;
  /**
   * A stylesheet, by its path on this server (`/assets/login-3f2a9c.css`), that the control plane's own HTML pages
   * (the login form) link so they look like the dashboard. Without one they are plain HTML. The last call wins.
   */
  pageStylesheet(href: string): void;
}
