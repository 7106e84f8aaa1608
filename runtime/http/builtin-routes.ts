import type { MetricsRegistry } from '../metrics/index.js';
import { buildOpenApi } from './openapi.js';
import { CONTROL_PLANE_OWNER, type RouteTable } from './route-table.js';

export interface BuiltinRouteOptions {
  registry: MetricsRegistry;
  metricsAuth: boolean;
  info: { title: string; version: string };
  health(): { status: 'ok' | 'starting' | 'stopping'; [k: string]: unknown };
}

/** `/api/health`, `/metrics` and `/api`: registered like plugin routes, so they are listed and conflict-checked. */
export function registerBuiltinRoutes(table: RouteTable, options: BuiltinRouteOptions): void {
  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: '/api/health',
    auth: 'none',
    summary: 'Liveness: 200 when the runtime runs, 503 while it starts or stops',
    tags: ['health'],
    response: { type: 'object', required: ['status'], properties: { status: { enum: ['ok', 'starting', 'stopping'] } } },
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
    handler(ctx) {
      if (cached?.version !== table.version) {
        cached = { version: table.version, text: JSON.stringify(buildOpenApi(table, options.info)) };
      }
      ctx.set('Content-Type', 'application/json; charset=utf-8');
      ctx.body = cached.text;
    },
  });
}
