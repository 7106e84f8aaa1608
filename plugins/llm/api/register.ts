import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { registerEmptyListRoutes } from './empty-lists-routes.js';
import { registerGateRoute } from './gate-route.js';
import { registerStatsRoute } from './stats-route.js';
import { registerTemplateRoutes } from './templates-routes.js';
import { registerTraceRoutes } from './traces-routes.js';

/** The public REST API under /api/v1, authenticated by the project key; every answer is the key's project's only. */
export function registerPublicApi(http: HttpRoutes, store: Store): void {
  registerTraceRoutes(http, store);
  registerTemplateRoutes(http, store);
  registerStatsRoute(http, store);
  registerEmptyListRoutes(http);
  registerGateRoute(http, store);
}
