import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { JsonSchema } from './json-schema.js';

/** Who made an authenticated request. */
export interface AuthPrincipal {
  /** The scheme that accepted the credentials: `dashboard`, or a plugin's scheme name. */
  scheme: string;
  /** Scheme-specific identity, e.g. a project id for project keys. */
  subject?: string;
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
  readonly state: { auth?: AuthPrincipal; [key: string]: unknown };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  method: HttpMethod;
  /** Absolute path, Koa-router style parameters: `/api/gateway/records/:id`. */
  path: string;
  /** `dashboard` (default), `none`, or a scheme registered with `authScheme`. */
  auth?: string;
  /** One line for the OpenAPI listing. */
  summary: string;
  description?: string;
  tags?: string[];
  /** Validated (with type coercion) before the handler; unknown parameters are rejected. */
  query?: JsonSchema;
  /** Validated JSON request body; 400 with the key path when invalid. */
  body?: JsonSchema;
  /** Documented in the OpenAPI listing only. */
  response?: JsonSchema;
  /** Documented success status. Default 200. */
  status?: number;
  /** Request body limit in bytes; default `control_plane.body_limit`. Larger bodies get 413. */
  bodyLimit?: number;
  /** Hand the handler the body as a Buffer, unparsed (for protobuf and other binary payloads). */
  rawBody?: boolean;
  /**
   * For HTML pages of the dashboard: a GET or HEAD that carries no valid session answers 302 to
   * `/login?next=<this path and query>` instead of 401, so a person lands on the login form and comes back here.
   */
  loginRedirect?: boolean;
  /** A returned value other than undefined becomes the JSON response body. Throw `HttpError` for error statuses. */
  handler(ctx: RouteContext): unknown | Promise<unknown>;
}

export interface AuthScheme {
  /**
   * Returns the principal, or null when the request carries none of this scheme's credentials (the route then
   * answers 401). Throw `HttpError(401, …)` for wrong credentials: the runtime counts them towards the lockout.
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
  summary: string;
  /** `socket` is a `ws` WebSocket. */
  handler(socket: import('ws').WebSocket, request: IncomingMessage, principal: AuthPrincipal | undefined): void;
}

export interface HttpRoutes {
  route(definition: RouteDefinition): void;
  authScheme(name: string, scheme: AuthScheme): void;
  websocket(definition: WebSocketRoute): void;
  /**
   * A stylesheet, by its path on this server (`/assets/login-3f2a9c.css`), that the control plane's own HTML pages
   * (the login form) link so they look like the dashboard. Without one they are plain HTML. The last call wins.
   */
  pageStylesheet(href: string): void;
}
