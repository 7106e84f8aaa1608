import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import type { AlertEvents } from '../alert-events.js';
import type { EvalScores } from '../eval-scores.js';
import { registerAlertEventsRoute } from './alert-events-route.js';
import { registerEvalResultsRoute } from './eval-results-route.js';
import { registerGateRoute } from './gate-route.js';
import { registerStatsRoute } from './stats-route.js';
import { registerTemplateRoutes } from './templates-routes.js';
import { registerTraceRoutes } from './traces-routes.js';

/** The public REST API under /api/v1, authenticated by the project key; every answer is the key's project's only. */
export function registerPublicApi(http: HttpRoutes, store: Store, scores: EvalScores, alerts: AlertEvents): void {
  registerTraceRoutes(http, store);
  registerTemplateRoutes(http, store, scores);
  registerStatsRoute(http, store, scores);
  registerEvalResultsRoute(http, scores);
  registerAlertEventsRoute(http, alerts);
  registerGateRoute(http, store, scores);
}
