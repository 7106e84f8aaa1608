import type { JsonSchema } from '@vigil/plugin-sdk';
import { pathParamNames, type RegisteredRoute, type RouteTable } from './route-table.js';
import { querySchemaOf } from './schema-validation.js';
import { SESSION_COOKIE } from './session-cookie.js';

type Json = Record<string, unknown>;

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'Stable code, e.g. VIGIL_ERR_HTTP_UNAUTHORIZED.' },
        message: { type: 'string' },
        path: { type: 'string', description: 'Key path of the invalid value, for validation errors.' },
      },
    },
  },
};

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

function operation(route: RegisteredRoute): Json {
  const d = route.definition;
  const status = String(d.status ?? 200);
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
    responses: {
      [status]: {
        description: d.summary,
        ...(d.response ? { content: { 'application/json': { schema: d.response } } } : {}),
      },
      default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  };
  if (parameters.length) op.parameters = parameters;
  if (d.body) op.requestBody = { required: true, content: { 'application/json': { schema: d.body } } };
  else if (d.rawBody) {
    op.requestBody = { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  }
  return op;
}

/** An OpenAPI 3.1 document of every route, auth scheme and websocket registered on the control plane. */
export function buildOpenApi(table: RouteTable, info: { title: string; version: string }): Json {
  const paths: Record<string, Json> = {};
  const tags = new Set<string>();
  for (const route of table.routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route);
    tags.add(route.plugin);
  }
  for (const { plugin, definition, auth } of table.sockets.values()) {
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
      responses: { 101: { description: 'Switching Protocols' } },
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
    components: { securitySchemes, schemas: { Error: ERROR_SCHEMA } },
  };
}
