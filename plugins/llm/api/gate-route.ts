import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { gateQuery, gateVerdict } from './gate-query.js';
import { gateSchema } from './schemas.js';

export const GATE_DESCRIPTION = 'Thresholds: min_score, max_score_drop, max_p95_increase_pct, max_error_rate, max_error_rate_increase (absolute), '
  + 'max_cost_increase_pct (average cost per call). max_error_rate_increase=0.02 and max_p95_increase_pct=20 are checked unless given another value.';

export function registerGateRoute(http: HttpRoutes, store: Store, scores: EvalScores): void {
  http.route({
    method: 'GET', path: '/api/v1/gate', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'CI regression gate: a candidate prompt version against a baseline, by thresholds; pass is null with too few samples',
    response: gateSchema,
    description: GATE_DESCRIPTION,
    query: gateQuery,
    handler: (ctx) => gateVerdict(store, scores, projectOf(ctx).id, ctx.query),
  });
}
