import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { projectStats, STATS_DESCRIPTION, statsQuery } from './stats-query.js';
import { statsSchema } from './schemas.js';

export function registerStatsRoute(http: HttpRoutes, store: Store, scores: EvalScores): void {
  http.route({
    method: 'GET', path: '/api/v1/stats', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Aggregate statistics of the key\'s project over a range: requests, errors, latency percentiles, tokens, cost, eval score, and a time series',
    response: statsSchema,
    description: STATS_DESCRIPTION,
    query: statsQuery,
    handler: (ctx) => projectStats(store, scores, projectOf(ctx).id, ctx.query),
  });
}
