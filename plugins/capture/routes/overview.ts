import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { BUCKET_COLUMNS, quantileMs } from '../../../gateway/records/latency-buckets.js';
import { readRouteSteps, SUMMED_COLUMNS } from '../../../gateway/records/rollup-query.js';
import { rangeQuery, resolveRange } from '../time-range.js';
import { overviewSchema } from './schemas.js';

/** Routes listed in `top_routes`. */
export const TOP_ROUTES = 10;
const MINUTE = 60_000;

type Row = Partial<Record<string, number>>;
const countsOf = (row: Row) => BUCKET_COLUMNS.map((c) => row[c] ?? 0);
const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/** Adds the summed columns of `row` into `into` (a group of groups). */
function addInto(into: Record<string, number>, row: Row): Record<string, number> {
  for (const c of SUMMED_COLUMNS) into[c] = (into[c] ?? 0) + (row[c] ?? 0);
  return into;
}

/** Summary numbers of one group of rollup rows: the range, one step of `volume`, or one of `top_routes`. */
function summary(row: Row) {
  const requests = row.requests ?? 0;
  const errors = row.errors ?? 0;
  const counts = countsOf(row);
  return {
    requests,
    errors,
    error_rate: requests ? errors / requests : 0,
    p95_ms: round(quantileMs(counts, 0.95)),
    p99_ms: round(quantileMs(counts, 0.99)),
    tokens: row.tokens ?? 0,
  };
}

export function registerOverviewRoute(http: HttpRoutes, store: Store): void {
  http.route({
    method: 'GET', path: '/api/gateway/overview', tags: ['gateway'],
    summary: 'Request volume over time, error rate, P95/P99 latency and top routes',
    description: 'Computed from per-minute rollups. Latency percentiles are estimated from fixed buckets (1 ms … 60 s) and lie within the bounds of the bucket that holds them. `volume` has one point per step (1 min for 1h, 15 min for 24h, 1 h for 7d), zero where nothing was captured.',
    query: { type: 'object', properties: { range: rangeQuery } },
    response: overviewSchema,
    async handler(ctx) {
      const name = String(ctx.query.range ?? '24h');
      const { from, to, step } = resolveRange(name);
      const groups = await readRouteSteps(store, from, to, step);
      const total: Record<string, number> = {};
      const byTime = new Map<number, Record<string, number>>();
      const byRoute = new Map<string, Record<string, number>>();
      for (const g of groups) {
        addInto(total, g.sums);
        byTime.set(g.t, addInto(byTime.get(g.t) ?? {}, g.sums));
        byRoute.set(g.route, addInto(byRoute.get(g.route) ?? {}, g.sums));
      }
      const routes = [...byRoute].sort(([a, x], [b, y]) => y.requests - x.requests || (a < b ? -1 : a > b ? 1 : 0)).slice(0, TOP_ROUTES);
      const volume = [];
      // Whole minutes: the minute in which the range starts is counted in full.
      const first = from - (from % MINUTE);
      for (let t = first - (first % step); t < to; t += step) volume.push({ time: t, ...summary(byTime.get(t) ?? {}) });
      return {
        range: name, from, to, step_ms: step,
        ...summary(total),
        volume,
        top_routes: routes.map(([route, r]) => ({ route, ...summary(r) })),
      };
    },
  });
}
