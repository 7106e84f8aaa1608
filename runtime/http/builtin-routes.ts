import { TEXT_BODY, type JsonSchema } from '@vigil/plugin-sdk';
import type { MetricsRegistry } from '../metrics/index.js';
import { buildOpenApi } from './openapi.js';
import { CONTROL_PLANE_OWNER, type RouteTable } from './route-table.js';

export interface BuiltinRouteOptions {
  registry: MetricsRegistry;
  metricsAuth: boolean;
  info: { title: string; version: string };
  health(): { status: 'ok' | 'starting' | 'stopping'; [k: string]: unknown };
}

const HEALTH: JsonSchema = {
  title: 'Health',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'version', 'plugins'],
  properties: {
    status: { enum: ['ok', 'starting', 'stopping'] },
    version: { type: 'string', description: 'The version of Vigil that runs.' },
    plugins: { type: 'array', items: { type: 'string' }, description: 'The enabled plugins, in start order.' },
  },
};

/** An OpenAPI 3.1 document: checked as an object with the keys every such document has. */
const OPENAPI_DOCUMENT: JsonSchema = {
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' }, components: { type: 'object' } },
};

/** `/api/health`, `/metrics` and `/api`: registered like plugin routes, so they are listed and conflict-checked. */
export function registerBuiltinRoutes(table: RouteTable, options: BuiltinRouteOptions): void {
  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: '/api/health',
    auth: 'none',
    summary: 'Liveness: 200 when the runtime runs, 503 while it starts or stops',
    tags: ['health'],
    responses: { 200: HEALTH, 503: HEALTH },
    handler(ctx) {
      const health = options.health();
      ctx.set('Cache-Control', 'no-store');
      ctx.status = health.status === 'ok' ? 200 : 503;
      return health;
    },
  });

  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: '/metrics',
    auth: options.metricsAuth ? 'dashboard' : 'none',
    summary: 'Prometheus metrics (text exposition format 0.0.4)',
    tags: ['metrics'],
    response: TEXT_BODY,
    handler(ctx) {
      ctx.set('Content-Type', options.registry.contentType);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = options.registry.expose();
    },
  });

  let cached: { version: number; text: string } | undefined;
  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: '/api',
    summary: 'This API listing (OpenAPI 3.1)',
    tags: ['api'],
    response: OPENAPI_DOCUMENT,
    handler(ctx) {
      if (cached?.version !== table.version) {
        cached = { version: table.version, text: JSON.stringify(buildOpenApi(table, options.info)) };
      }
      ctx.set('Content-Type', 'application/json; charset=utf-8');
      ctx.body = cached.text;
    },
  });
}
