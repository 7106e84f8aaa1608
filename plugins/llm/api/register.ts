import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { registerTraceRoutes } from './traces-routes.js';

/** The public REST API under /api/v1, authenticated by the project key; every answer is the key's project's only. */
export function registerPublicApi(http: HttpRoutes, store: Store): void {
  registerTraceRoutes(http, store);
}
