import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import type { CaptureConfig } from '../types.js';
import { rangeQuery, resolveRange } from '../time-range.js';
import { usageCost } from '../usage-cost.js';

/** Most tenants one answer draws separately; the rest are summed under `other`. */
export const MAX_SERIES = 10;
const MINUTE = 60_000;
const MEASURES = ['requests', 'tokens', 'cost'] as const;
type Measure = (typeof MEASURES)[number];

interface Sums { requests: number; tokens: number; cost: number }
// PostgreSQL returns SUM(bigint) as numeric, which node-postgres hands over as a string.
type Row = { t?: number | string; tenant?: string; requests: number | string | null; tokens: number | string | null };

/**
 * Tenants ranked by `by`, busiest first; ties by name, so the same data always picks the same tenants. Cost ranks
 * by the prices, which weigh tokens against requests.
 */
export function rankTenants<T extends Sums & { tenant: string }>(tenants: T[], by: Measure): T[] {
  return [...tenants].sort((a, b) => b[by] - a[by] || b.requests - a.requests || (a.tenant < b.tenant ? -1 : a.tenant > b.tenant ? 1 : 0));
}

export function registerUsageSeriesRoute(http: HttpRoutes, store: Store, config: CaptureConfig): void {
  const rollups = store.table('rollups');
  const sums = (r: Row): Sums => {
    const requests = Number(r.requests ?? 0);
    const tokens = Number(r.tokens ?? 0);
    return { requests, tokens, cost: usageCost(config.pricing, requests, tokens) };
  };
  http.route({
    method: 'GET', path: '/api/gateway/usage/series', tags: ['gateway'],
    summary: 'Requests, tokens and cost over time for the top tenants, with the range\'s totals',
    description: 'One point per step (1 min for 1h, 15 min for 24h, 1 h for 7d), zero where nothing was captured. The `top` ' +
      'tenants by `by` (or the tenants named by `tenant`) each get a series; every other tenant is summed in `other`. ' +
      '`totals` covers all tenants. Exchanges without the tenant label count under the tenant "".',
    query: {
      type: 'object',
      properties: {
        range: rangeQuery,
        by: { type: 'string', enum: [...MEASURES], default: 'requests', description: 'What ranks the tenants: requests, tokens or cost.' },
        top: { type: 'integer', minimum: 1, maximum: MAX_SERIES, default: 5, description: `Tenants with a series of their own (at most ${MAX_SERIES}).` },
        tenant: {
          type: 'array', items: { type: 'string', maxLength: 256 }, maxItems: MAX_SERIES,
          description: 'Draw these tenants instead of the top ones (repeat the parameter; an empty value is the unlabelled tenant).',
        },
      },
    },
    async handler(ctx) {
      const name = String(ctx.query.range ?? '24h');
      const { from, to, step } = resolveRange(name);
      const by = (ctx.query.by ?? 'requests') as Measure;
      // Whole minutes: the minute in which the range starts is counted in full, as in the usage list and overview.
      const range = [from - (from % MINUTE), to];
      const perTenant = await store.query<Row>(
        `SELECT tenant, SUM(requests) AS requests, SUM(tokens) AS tokens FROM ${rollups} WHERE bucket >= ? AND bucket < ? GROUP BY tenant`, range);
      const tenants = perTenant.map((r) => ({ tenant: String(r.tenant), ...sums(r) }));
      const named = ctx.query.tenant as string[] | undefined;
      const chosen = named
        ? [...new Set(named)].map((tenant) => tenants.find((t) => t.tenant === tenant) ?? { tenant, requests: 0, tokens: 0, cost: 0 })
        : rankTenants(tenants, by).slice(0, Number(ctx.query.top ?? 5));

      const times: number[] = [];
      for (let t = range[0] - (range[0] % step); t < to; t += step) times.push(t);
      const index = new Map(times.map((t, i) => [t, i]));
      const empty = () => ({ requests: times.map(() => 0), tokens: times.map(() => 0) });

      const points = new Map(chosen.map((t) => [t.tenant, empty()]));
      const rest = empty();
      const fill = (rows: Row[], pick: (r: Row) => ReturnType<typeof empty> | undefined) => {
        for (const r of rows) {
          const target = pick(r);
          const i = index.get(Number(r.t));
          if (target && i !== undefined) { target.requests[i] = Number(r.requests ?? 0); target.tokens[i] = Number(r.tokens ?? 0); }
        }
      };
      const names = chosen.map((t) => t.tenant);
      const list = names.map(() => '?').join(', ');
      const perStep = (where: string, group: string) =>
        `SELECT (bucket / ${step}) * ${step} AS t${group ? `, ${group}` : ''}, SUM(requests) AS requests, SUM(tokens) AS tokens FROM ${rollups}
         WHERE bucket >= ? AND bucket < ?${where} GROUP BY (bucket / ${step})${group ? `, ${group}` : ''}`;
      if (names.length) fill(await store.query<Row>(perStep(` AND tenant IN (${list})`, 'tenant'), [...range, ...names]), (r) => points.get(String(r.tenant)));
      // The rest straight from the store rather than total minus the chosen: rows stored between two queries could
      // otherwise make it negative.
      fill(await store.query<Row>(perStep(names.length ? ` AND tenant NOT IN (${list})` : '', ''), [...range, ...names]), () => rest);
      const withCost = (p: { requests: number[]; tokens: number[] }) => ({ ...p, cost: p.requests.map((n, i) => usageCost(config.pricing, n, p.tokens[i])) });
      const add = (list: Sums[]) => list.reduce((s, t) => ({ requests: s.requests + t.requests, tokens: s.tokens + t.tokens }), { requests: 0, tokens: 0 });
      const totals = { ...sums(add(tenants)), tenants: tenants.length };
      const chosenNames = new Set(names);
      const others = tenants.filter((t) => !chosenNames.has(t.tenant));
      return {
        range: name, from, to, step_ms: step, by,
        tenant_label: config.tenant_label,
        currency: config.pricing.currency,
        pricing: { per_1k_tokens: config.pricing.per_1k_tokens, per_request: config.pricing.per_request },
        totals,
        times,
        series: chosen.map((t) => ({ ...t, points: withCost(points.get(t.tenant)!) })),
        other: { tenants: others.length, ...sums(add(others)), points: withCost(rest) },
      };
    },
  });
}
