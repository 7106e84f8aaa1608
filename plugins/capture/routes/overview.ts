import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { BUCKET_COLUMNS, quantileMs } from '../latency-buckets.js';
import { rangeQuery, resolveRange } from '../time-range.js';

/** Routes listed in `top_routes`. */
export const TOP_ROUTES = 10;
const MINUTE = 60_000;

const SUMMED = ['requests', 'errors', 'tokens', ...BUCKET_COLUMNS];
const sums = SUMMED.map((c) => `SUM(${c}) AS ${c}`).join(', ');
// PostgreSQL returns SUM(bigint) as numeric, which node-postgres hands over as a string.
type Row = Record<string, number | string | null>;
const countsOf = (row: Row) => BUCKET_COLUMNS.map((c) => Number(row[c] ?? 0));
const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/** Adds the summed columns of `row` into `into` (a group of groups). */
function addInto(into: Record<string, number>, row: Row): Record<string, number> {
  for (const c of SUMMED) into[c] = (into[c] ?? 0) + Number(row[c] ?? 0);
  return into;
}

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
      // One pass over the range's rollup rows, summed per step and route: the totals, the series and the top routes
      // are sums of these few groups (steps × routes), where three queries would each read every row again.
      const groups = await store.query<Row>(
        `SELECT (bucket / ${step}) * ${step} AS t, route, ${sums} FROM ${rollups} WHERE bucket >= ? AND bucket < ? GROUP BY (bucket / ${step}), route`, range);
      const total: Record<string, number> = {};
      const byTime = new Map<number, Record<string, number>>();
      const byRoute = new Map<string, Record<string, number>>();
      for (const g of groups) {
        addInto(total, g);
        const t = Number(g.t);
        byTime.set(t, addInto(byTime.get(t) ?? {}, g));
        const route = String(g.route);
        byRoute.set(route, addInto(byRoute.get(route) ?? {}, g));
      }
      const routes = [...byRoute].sort(([a, x], [b, y]) => y.requests - x.requests || (a < b ? -1 : a > b ? 1 : 0)).slice(0, TOP_ROUTES);
      const volume = [];
      for (let t = range[0] - (range[0] % step); t < to; t += step) volume.push({ time: t, ...summary(byTime.get(t) ?? {}) });
      return {
        range: name, from, to, step_ms: step,
        ...summary(total),
        volume,
        top_routes: routes.map(([route, r]) => ({ route, ...summary(r) })),
      };
    },
  });
}
