import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { projectStats, statsQuery, type StatsRange } from './stats-query.js';

export function registerStatsRoute(http: HttpRoutes, store: Store): void {
  http.route({
    method: 'GET', path: '/api/v1/stats', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Aggregate statistics of the key\'s project over a range: requests, errors, latency percentiles, tokens, cost, eval score, and a time series',
    query: statsQuery,
    handler: (ctx) => projectStats(store, projectOf(ctx).id, String(ctx.query.range ?? '24h') as StatsRange),
  });
}
