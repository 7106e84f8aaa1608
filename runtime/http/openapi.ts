import { isNonJsonBody, type JsonSchema, type ResponseBody } from '@vigil/plugin-sdk';
import { ERROR_BODY } from './error-body.js';
import { referenceNamed } from './named-schemas.js';
import { pathParamNames, type RegisteredRoute, type RouteTable } from './route-table.js';
import { querySchemaOf } from './schema-validation.js';
import { SESSION_COOKIE } from './session-cookie.js';

type Json = Record<string, unknown>;

const DASHBOARD_SECURITY = [{ dashboard: [] }, { dashboardCookie: [] }];

/** `/records/:id/*rest` → `/records/{id}/{rest}`. */
export function openApiPath(path: string): string {
  return path.replace(/[:*]("[^"]+"|[A-Za-z_$][\w$]*)/g, (_, name: string) => `{${name.replace(/^"|"$/g, '')}}`);
}

function security(auth: string): unknown[] {
  if (auth === 'none') return [];
  if (auth === 'dashboard') return DASHBOARD_SECURITY;
  return [{ [auth]: [] }];
}

function queryParameters(schema: JsonSchema | undefined): Json[] {
  if (!schema) return [];
  const full = querySchemaOf(schema);
  const required = new Set(full.required ?? []);
  return Object.entries(full.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(property.description ? { description: property.description } : {}),
    schema: property,
  }));
}

/** Named shapes go to `components/schemas`; the operation refers to them. */
type Components = Record<string, JsonSchema>;

const ERROR_REF = { $ref: '#/components/schemas/ErrorAnswer' };
/** Every operation can answer these, in the one error shape: auth, validation, not found, a failed handler. */
const ERROR_RESPONSES = {
  '4XX': { description: 'The request was refused; `error.code` says why (docs/errors.md).', content: { 'application/json': { schema: ERROR_REF } } },
  '5XX': { description: 'The server failed or is unavailable; the log has the details.', content: { 'application/json': { schema: ERROR_REF } } },
};

function responseObject(body: ResponseBody, summary: string, components: Components): Json {
  if (isNonJsonBody(body)) {
    if (body.mediaType === null) return { description: `${summary}. ${body.description}` };
    const content: Json = { [body.mediaType]: { schema: { type: 'string', description: body.description } } };
    if (body.json) content['application/json'] = { schema: referenceNamed(body.json, (title, named) => { components[title] = named; }) };
    return { description: summary, content };
  }
  const schema = referenceNamed(body, (title, named) => { components[title] = named; });
  return { description: summary, content: { 'application/json': { schema } } };
}

function operation(route: RegisteredRoute, components: Components): Json {
  const d = route.definition;
  const responses: Json = {};
  for (const [status, body] of route.responses) responses[String(status)] = responseObject(body, d.summary, components);
  const parameters = [
    ...pathParamNames(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...queryParameters(d.query),
  ];
  const op: Json = {
    operationId: `${route.plugin}.${route.method.toLowerCase()}${route.path}`.replace(/[^A-Za-z0-9_.]+/g, '_'),
    summary: d.summary,
    ...(d.description ? { description: d.description } : {}),
    tags: [route.plugin, ...(d.tags ?? [])],
    security: security(route.auth),
    // The role a dashboard user needs, and the path parameter naming the project it is checked in (docs/security.md).
    ...(route.auth === 'dashboard' ? { 'x-vigil-role': route.access.role, 'x-vigil-project-param': route.access.projectParam } : {}),
    responses: { ...ERROR_RESPONSES, ...responses },
  };
  if (parameters.length) op.parameters = parameters;
  if (d.body) {
    const schema = referenceNamed(d.body, (title, named) => { components[title] = named; });
    op.requestBody = { required: true, content: { 'application/json': { schema } } };
  }
  else if (d.rawBody) {
    op.requestBody = { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  }
  return op;
}

/** An OpenAPI 3.1 document of every route, auth scheme and websocket registered on the control plane. */
export function buildOpenApi(table: RouteTable, info: { title: string; version: string }): Json {
  const paths: Record<string, Json> = {};
  const tags = new Set<string>();
  const components: Components = {};
  referenceNamed(ERROR_BODY, (title, named) => { components[title] = named; });
  for (const route of table.routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, components);
    tags.add(route.plugin);
  }
  for (const { plugin, definition, auth, role } of table.sockets.values()) {
    const path = openApiPath(definition.path);
    paths[path] ??= {};
    if (paths[path].get) continue;
    paths[path].get = {
      operationId: `${plugin}.websocket${definition.path}`.replace(/[^A-Za-z0-9_.]+/g, '_'),
      summary: definition.summary,
      description: 'WebSocket endpoint: upgrade with a same-origin Origin header.',
      tags: [plugin],
      security: security(auth),
      'x-websocket': true,
      ...(auth === 'dashboard' ? { 'x-vigil-role': role } : {}),
      responses: { 101: { description: 'Switching Protocols' }, ...ERROR_RESPONSES },
    };
    tags.add(plugin);
  }
  const securitySchemes: Record<string, unknown> = {
    dashboard: { type: 'http', scheme: 'bearer', description: 'The dashboard token as a bearer token.' },
    dashboardCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie set by GET /?token=… or POST /login; state-changing requests with it need a same-origin Origin or Sec-Fetch-Site.' },
  };
  for (const { name, scheme } of table.schemes.values()) securitySchemes[name] = scheme.openapi;
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version },
    tags: [...tags].sort().map((name) => ({ name })),
    security: DASHBOARD_SECURITY,
    paths,
    components: {
      securitySchemes,
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    },
  };
}
