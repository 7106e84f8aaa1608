import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { BUCKET_COLUMNS, quantileMs } from '../latency-buckets.js';
import { rangeQuery, resolveRange } from '../time-range.js';

/** Routes listed in `top_routes`. */
export const TOP_ROUTES = 10;
const MINUTE = 60_000;

const sums = ['requests', 'errors', 'tokens', ...BUCKET_COLUMNS].map((c) => `SUM(${c}) AS ${c}`).join(', ');
// PostgreSQL returns SUM(bigint) as numeric, which node-postgres hands over as a string.
type Row = Record<string, number | string | null>;
const countsOf = (row: Row) => BUCKET_COLUMNS.map((c) => Number(row[c] ?? 0));
const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/** Summary numbers of one group of rollup rows: the range, one step of `volume`, or one of `top_routes`. */
function summary(row: Row) {
  const requests = Number(row.requests ?? 0);
  const errors = Number(row.errors ?? 0);
  const counts = countsOf(row);
  return {
    requests,
    errors,
    error_rate: requests ? errors / requests : 0,
    p95_ms: round(quantileMs(counts, 0.95)),
    p99_ms: round(quantileMs(counts, 0.99)),
    tokens: Number(row.tokens ?? 0),
  };
}

export function registerOverviewRoute(http: HttpRoutes, store: Store): void {
  const rollups = store.table('rollups');
  http.route({
    method: 'GET', path: '/api/gateway/overview', tags: ['gateway'],
    summary: 'Request volume over time, error rate, P95/P99 latency and top routes',
    description: 'Computed from per-minute rollups. Latency percentiles are estimated from fixed buckets (1 ms … 60 s) and lie within the bounds of the bucket that holds them. `volume` has one point per step (1 min for 1h, 15 min for 24h, 1 h for 7d), zero where nothing was captured.',
    query: { type: 'object', properties: { range: rangeQuery } },
    async handler(ctx) {
      const name = String(ctx.query.range ?? '24h');
      const { from, to, step } = resolveRange(name);
      // Whole minutes: the minute in which the range starts is counted in full.
      const range = [from - (from % MINUTE), to];
      const [total] = await store.query<Row>(`SELECT ${sums} FROM ${rollups} WHERE bucket >= ? AND bucket < ?`, range);
      const series = await store.query<Row>(
        `SELECT (bucket / ${step}) * ${step} AS t, ${sums} FROM ${rollups} WHERE bucket >= ? AND bucket < ? GROUP BY (bucket / ${step}) ORDER BY t`, range);
      const routes = await store.query<Row>(
        `SELECT route, ${sums} FROM ${rollups} WHERE bucket >= ? AND bucket < ? GROUP BY route ORDER BY SUM(requests) DESC, route LIMIT ${TOP_ROUTES}`, range);
      const byTime = new Map(series.map((r) => [Number(r.t), r]));
      const volume = [];
      for (let t = range[0] - (range[0] % step); t < to; t += step) volume.push({ time: t, ...summary(byTime.get(t) ?? {}) });
      return {
        range: name, from, to, step_ms: step,
        ...summary(total ?? {}),
        volume,
        top_routes: routes.map((r) => ({ route: r.route, ...summary(r) })),
      };
    },
  });
}
