import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { BUCKET_COLUMNS, quantileMs } from '../latency-buckets.js';
import { rangeQuery, resolveRange } from '../time-range.js';

const sums = ['requests', 'errors', 'tokens', ...BUCKET_COLUMNS].map((c) => `SUM(${c}) AS ${c}`).join(', ');
type Row = Record<string, number | string>;
const countsOf = (row: Row) => BUCKET_COLUMNS.map((c) => Number(row[c] ?? 0));
const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/** Summary numbers of one group of rollup rows. */
function summary(row: Row) {
  const requests = Number(row.requests ?? 0);
  const counts = countsOf(row);
  return {
    requests,
    errors: Number(row.errors ?? 0),
    error_rate: requests ? Number(row.errors ?? 0) / requests : 0,
    p95_ms: round(quantileMs(counts, 0.95)),
    p99_ms: round(quantileMs(counts, 0.99)),
  };
}

export function registerOverviewRoute(http: HttpRoutes, store: Store): void {
  const rollups = store.table('rollups');
  http.route({
    method: 'GET', path: '/api/gateway/overview', tags: ['gateway'],
    summary: 'Request volume over time, error rate, P95/P99 latency and top routes',
    query: { type: 'object', properties: { range: rangeQuery } },
    async handler(ctx) {
      const { from, to, step } = resolveRange(String(ctx.query.range ?? '24h'));
      const range = [from - (from % 60_000), to];
      const [total] = await store.query<Row>(`SELECT ${sums} FROM ${rollups} WHERE bucket >= ? AND bucket < ?`, range);
      const series = await store.query<Row>(
        `SELECT (bucket / ${step}) * ${step} AS t, ${sums} FROM ${rollups} WHERE bucket >= ? AND bucket < ? GROUP BY (bucket / ${step}) ORDER BY t`, range);
      const routes = await store.query<Row>(
        `SELECT route, ${sums} FROM ${rollups} WHERE bucket >= ? AND bucket < ? GROUP BY route ORDER BY SUM(requests) DESC LIMIT 10`, range);
      return {
        range: ctx.query.range ?? '24h', from, to, step_ms: step,
        ...summary(total ?? {}),
        volume: series.map((r) => ({ time: Number(r.t), ...summary(r) })),
        top_routes: routes.map((r) => ({ route: r.route, ...summary(r) })),
      };
    },
  });
}
