import { isNonJsonBody, type AuthScheme, type HttpMethod, type JsonSchema, type ResponseBody, type RouteDefinition, type WebSocketRoute } from '@vigil/plugin-sdk';
import { controlPlaneError, HttpErrors } from './errors.js';
import { namedShapes } from './named-schemas.js';
import { routeAccess, type RouteAccess } from './route-access.js';
import { isRole, type Role } from '../auth/roles.js';
import type { ResponseCheck, SchemaCompiler, Validator } from './schema-validation.js';

/** Owner of the endpoints the control plane itself serves (health, metrics, the API listing). */
export const CONTROL_PLANE_OWNER = 'control-plane';
/** Scheme names with a fixed meaning, which plugins cannot register. */
export const RESERVED_SCHEMES = new Set(['dashboard', 'none', 'dashboardCookie']);

const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const PARAM = /:("[^"]+"|[A-Za-z_$][\w$]*)/g;
const WILDCARD = /\*("[^"]+"|[A-Za-z_$][\w$]*)/g;

export interface RegisteredRoute {
  readonly plugin: string;
  readonly definition: RouteDefinition;
  readonly method: HttpMethod;
  readonly path: string;
  readonly auth: string;
  /** With the dashboard auth: the role the caller needs, and where (route-access.ts). */
  readonly access: RouteAccess;
  readonly bodyLimit: number;
  readonly validateQuery?: Validator;
  readonly validateBody?: Validator;
  /** The declared answers, by status: `response` under `status` (default 200), or `responses`. */
  readonly responses: ReadonlyMap<number, ResponseBody>;
  /** Checks of the JSON answers by status, when the table validates answers (test runs). */
  readonly checkResponse?: ReadonlyMap<number, ResponseCheck>;
}

export interface RegisteredScheme {
  readonly plugin: string;
  readonly name: string;
  readonly scheme: AuthScheme;
}

export interface RegisteredSocket {
  readonly plugin: string;
  readonly definition: WebSocketRoute;
  readonly auth: string;
  /** With the dashboard auth: the instance role the caller needs (default owner). */
  readonly role: Role;
}

/** What two paths that would match the same requests have in common: parameter names and a trailing slash erased. */
export function routeShape(path: string): string {
  const shape = path.replace(PARAM, ':').replace(WILDCARD, '*');
  return shape.length > 1 && shape.endsWith('/') ? shape.slice(0, -1) : shape;
}

/** Names of the path parameters, in order: `/a/:id/*rest` → `['id', 'rest']`. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(new RegExp(`${PARAM.source}|${WILDCARD.source}`, 'g'))]
    .map((m) => (m[1] ?? m[2]).replace(/^"|"$/g, ''));
}

export const describeOwner = (plugin: string): string => (plugin === CONTROL_PLANE_OWNER ? 'the control plane' : `plugin "${plugin}"`);

const NO_RESPONSE = 'declares no response: set `response` (a JSON Schema, or a marker such as HTML_BODY or NO_BODY from ' +
  '@vigil/plugin-sdk for an answer that is not JSON), or `responses` with one per success status';

/** The declared answers by status, or a sentence saying what is wrong with them. */
function declaredResponses(d: RouteDefinition): Map<number, ResponseBody> | string {
  const several = (d as { responses?: unknown }).responses;
  const one = (d as { response?: unknown }).response;
  if (several !== undefined && one !== undefined) return '`response` and `responses` exclude each other';
  if (several === undefined) {
    if (typeof one !== 'object' || one === null) return NO_RESPONSE;
    // A route that declares no body answers 204 unless it says otherwise, as the pipeline does.
    const noBody = isNonJsonBody(one) && one.mediaType === null;
    return new Map([[d.status ?? (noBody ? 204 : 200), one as ResponseBody]]);
  }
  if (typeof several !== 'object' || several === null || Object.keys(several).length === 0) return NO_RESPONSE;
  if (d.status !== undefined) return '`status` goes with `response`; with `responses`, the statuses are its keys';
  const out = new Map<number, ResponseBody>();
  for (const [key, body] of Object.entries(several)) {
    const status = Number(key);
    if (!Number.isInteger(status) || status < 100 || status > 599) return `responses: ${JSON.stringify(key)} is not an HTTP status`;
    if (typeof body !== 'object' || body === null) return `responses[${key}] must be a JSON Schema or a marker such as NO_BODY`;
    out.set(status, body as ResponseBody);
  }
  return out;
}

/**
 * Every route, auth scheme and websocket registered on the control plane, with the checks that make a bad
 * registration fail at start-up: conflicts name both plugins, bad schemas name the route.
 */
export class RouteTable {
  readonly routes: RegisteredRoute[] = [];
  readonly schemes = new Map<string, RegisteredScheme>();
  readonly sockets = new Map<string, RegisteredSocket>();
  /** Bumped on every registration, so derived documents know when to rebuild. */
  version = 0;
  private readonly byShape = new Map<string, RegisteredRoute>();
  /** Named shapes (PascalCase `title`) seen so far: one name, one shape, across every plugin. */
  private readonly shapes = new Map<string, { text: string; where: string }>();

  constructor(
    private readonly compiler: SchemaCompiler,
    private readonly defaultBodyLimit: number,
    private readonly mount: (route: RegisteredRoute) => void,
    /** Check every JSON answer against its declared schema (VIGIL_VALIDATE_RESPONSES=1, the test runs). */
    private readonly validateResponses = false,
  ) {}

  addRoute(plugin: string, definition: RouteDefinition): RegisteredRoute {
    const what = `${describeOwner(plugin)}: route ${String(definition?.method)} ${String(definition?.path)}`;
    const invalid = (problem: string, cause?: unknown): Error =>
      controlPlaneError(HttpErrors.ROUTE_INVALID, `${what}: ${problem}`, cause);
    if (!definition || typeof definition !== 'object') throw invalid('the definition must be an object');
    if (!METHODS.has(definition.method)) throw invalid(`method must be one of ${[...METHODS].join(', ')}`);
    if (typeof definition.path !== 'string' || !definition.path.startsWith('/')) throw invalid('path must start with "/"');
    if (typeof definition.summary !== 'string' || definition.summary.trim() === '') throw invalid('summary is required (one line for the API listing)');
    if (typeof definition.handler !== 'function') throw invalid('handler must be a function');
    const auth = definition.auth ?? 'dashboard';
    if (typeof auth !== 'string' || auth === '') throw invalid('auth must be "dashboard", "none" or a registered scheme name');
    const bodyLimit = definition.bodyLimit ?? this.defaultBodyLimit;
    if (!Number.isInteger(bodyLimit) || bodyLimit < 0) throw invalid(`bodyLimit must be a whole number of bytes, got ${String(bodyLimit)}`);
    if (definition.rawBody && definition.body) throw invalid('rawBody and body exclude each other: a raw body is not validated as JSON');
    if (definition.loginRedirect && (definition.method !== 'GET' || auth !== 'dashboard')) {
      throw invalid('loginRedirect is for pages: a GET route with the dashboard auth');
    }

    const responses = declaredResponses(definition);
    if (typeof responses === 'string') throw invalid(responses);
    const access = routeAccess(definition, pathParamNames(definition.path));
    if (typeof access === 'string') throw invalid(access);

    const key = `${definition.method} ${routeShape(definition.path)}`;
    const existing = this.byShape.get(key);
    if (existing) {
      throw controlPlaneError(HttpErrors.ROUTE_CONFLICT,
        `${what} conflicts with ${existing.method} ${existing.path} of ${describeOwner(existing.plugin)}; ` +
        'two routes cannot answer the same method and path');
    }
    let validateQuery: Validator | undefined;
    let validateBody: Validator | undefined;
    try {
      if (definition.query) validateQuery = this.compiler.query(definition.query);
    } catch (err) {
      throw invalid(`query schema does not compile: ${(err as Error).message}`, err);
    }
    try {
      if (definition.body) validateBody = this.compiler.body(definition.body);
    } catch (err) {
      throw invalid(`body schema does not compile: ${(err as Error).message}`, err);
    }
    const checkResponse = new Map<number, ResponseCheck>();
    const jsonSchemas = [...responses].map(([status, body]) => [status, isNonJsonBody(body) ? body.json : body] as const);
    for (const [status, schema] of jsonSchemas) {
      if (schema === undefined) continue;
      try {
        const check = this.compiler.response(schema);
        if (this.validateResponses) checkResponse.set(status, check);
      } catch (err) {
        throw invalid(`response schema of status ${status} does not compile: ${(err as Error).message}`, err);
      }
    }
    const named = this.checkNamedShapes(what, [definition.body, ...jsonSchemas.map(([, schema]) => schema)]);
    if (named) throw invalid(named);
    const route: RegisteredRoute = {
      plugin, definition, method: definition.method, path: definition.path, auth, access, bodyLimit, validateQuery, validateBody,
      responses, ...(this.validateResponses ? { checkResponse } : {}),
    };
    try {
      this.mount(route);
    } catch (err) {
      throw invalid(`path does not parse: ${(err as Error).message}`, err);
    }
    this.byShape.set(key, route);
    this.routes.push(route);
    this.version++;
    return route;
  }

  /**
   * A name of the listing's `components/schemas` stands for one shape: a second, different shape under a name already
   * taken is refused (and the first route's shapes are kept). Returns the problem, or null.
   */
  private checkNamedShapes(where: string, schemas: readonly (JsonSchema | undefined)[]): string | null {
    const fresh = new Map<string, string>();
    for (const schema of schemas) {
      for (const [title, shape] of namedShapes(schema)) {
        const text = JSON.stringify(shape);
        const known = this.shapes.get(title)?.text ?? fresh.get(title);
        if (known !== undefined && known !== text) {
          const first = this.shapes.get(title)?.where ?? 'this route';
          return `the schema named "${title}" differs from the one of that name declared by ${first}; give one of them another title`;
        }
        fresh.set(title, text);
      }
    }
    for (const [title, text] of fresh) if (!this.shapes.has(title)) this.shapes.set(title, { text, where });
    return null;
  }

  addScheme(plugin: string, name: string, scheme: AuthScheme): void {
    if (typeof name !== 'string' || !/^[A-Za-z][A-Za-z0-9_.-]*$/.test(name)) {
      throw controlPlaneError(HttpErrors.AUTH_SCHEME_CONFLICT, `${describeOwner(plugin)}: auth scheme name ${JSON.stringify(name)} must start with a letter and use letters, digits, "_", "." or "-"`);
    }
    if (RESERVED_SCHEMES.has(name)) {
      throw controlPlaneError(HttpErrors.AUTH_SCHEME_CONFLICT, `${describeOwner(plugin)}: auth scheme name "${name}" is reserved`);
    }
    const existing = this.schemes.get(name);
    if (existing) {
      throw controlPlaneError(HttpErrors.AUTH_SCHEME_CONFLICT,
        `${describeOwner(plugin)}: auth scheme "${name}" is already registered by ${describeOwner(existing.plugin)}`);
    }
    if (!scheme || typeof scheme.authenticate !== 'function' || typeof scheme.openapi !== 'object' || scheme.openapi === null) {
      throw controlPlaneError(HttpErrors.ROUTE_INVALID, `${describeOwner(plugin)}: auth scheme "${name}" needs authenticate() and an openapi object`);
    }
    this.schemes.set(name, { plugin, name, scheme });
    this.version++;
  }

  addSocket(plugin: string, definition: WebSocketRoute): void {
    const what = `${describeOwner(plugin)}: websocket ${String(definition?.path)}`;
    if (!definition || typeof definition.path !== 'string' || !definition.path.startsWith('/')) {
      throw controlPlaneError(HttpErrors.ROUTE_INVALID, `${what}: path must start with "/"`);
    }
    if (typeof definition.handler !== 'function') throw controlPlaneError(HttpErrors.ROUTE_INVALID, `${what}: handler must be a function`);
    if (typeof definition.summary !== 'string' || definition.summary.trim() === '') {
      throw controlPlaneError(HttpErrors.ROUTE_INVALID, `${what}: summary is required`);
    }
    const existing = this.sockets.get(definition.path);
    if (existing) {
      throw controlPlaneError(HttpErrors.ROUTE_CONFLICT,
        `${what} conflicts with the websocket of ${describeOwner(existing.plugin)} on the same path`);
    }
    if (definition.role !== undefined && !isRole(definition.role)) {
      throw controlPlaneError(HttpErrors.ROUTE_INVALID, `${what}: role must be one of viewer, member, admin, owner`);
    }
    this.sockets.set(definition.path, { plugin, definition, auth: definition.auth ?? 'dashboard', role: definition.role ?? 'owner' });
    this.version++;
  }

  /** Throws when a route or websocket names an auth scheme nobody registered. Run once registration is over. */
  checkAuthReferences(): void {
    const known = (auth: string): boolean => auth === 'dashboard' || auth === 'none' || this.schemes.has(auth);
    for (const r of this.routes) {
      if (!known(r.auth)) {
        throw controlPlaneError(HttpErrors.AUTH_SCHEME_UNKNOWN,
          `${describeOwner(r.plugin)}: route ${r.method} ${r.path} uses auth "${r.auth}", which no plugin registered; ` +
          `known: dashboard, none${[...this.schemes.keys()].map((s) => `, ${s}`).join('')}`);
      }
    }
    for (const s of this.sockets.values()) {
      if (!known(s.auth)) {
        throw controlPlaneError(HttpErrors.AUTH_SCHEME_UNKNOWN,
          `${describeOwner(s.plugin)}: websocket ${s.definition.path} uses auth "${s.auth}", which no plugin registered`);
      }
    }
  }
}
