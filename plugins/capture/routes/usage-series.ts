import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import type { CaptureConfig } from '../../../gateway/records/lane-tasks.js';
import { readNamedTenants, readOtherTenants, readTenantSteps, readTopTenants, type TenantSums } from '../../../gateway/records/rollup-query.js';
import { rangeQuery, resolveRange } from '../time-range.js';
import { usageCost } from '../usage-cost.js';
import { usageSeriesSchema } from './schemas.js';

/** Most tenants one answer draws separately; the rest are summed under `other`. */
export const MAX_SERIES = 10;
const MINUTE = 60_000;
const MEASURES = ['requests', 'tokens', 'cost'] as const;
type Measure = (typeof MEASURES)[number];

interface Sums { requests: number; tokens: number; cost: number }

/**
 * Tenants ranked by `by`, busiest first; ties by name, so the same data always picks the same tenants. Cost ranks
 * by the prices, which weigh tokens against requests.
 */
export function rankTenants<T extends Sums & { tenant: string }>(tenants: T[], by: Measure): T[] {
  return [...tenants].sort((a, b) => b[by] - a[by] || b.requests - a.requests || (a.tenant < b.tenant ? -1 : a.tenant > b.tenant ? 1 : 0));
}

export function registerUsageSeriesRoute(http: HttpRoutes, store: Store, config: CaptureConfig): void {
  const sums = (r: { requests: number; tokens: number }): Sums =>
    ({ requests: r.requests, tokens: r.tokens, cost: usageCost(config.pricing, r.requests, r.tokens) });
  http.route({
    method: 'GET', path: '/api/gateway/usage/series', tags: ['gateway'],
    summary: 'Requests, tokens and cost over time for the top tenants, with the range\'s totals',
    response: usageSeriesSchema,
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
      // The ranking, the named tenants and the rest's sums are each one aggregate in the store: however many tenants
      // the range holds, none of their rows comes to this thread but the chosen few.
      const named = ctx.query.tenant as string[] | undefined;
      const found = named
        ? await readNamedTenants(store, from, to, named)
        : await readTopTenants(store, from, to, by, config.pricing, Number(ctx.query.top ?? 5));
      const present = found.map((r) => ({ tenant: r.tenant, ...sums(r) }));
      const chosen = named
        ? [...new Set(named)].map((tenant) => present.find((t) => t.tenant === tenant) ?? { tenant, requests: 0, tokens: 0, cost: 0 })
        : present;
      const names = chosen.map((t) => t.tenant);
      const rest = await readOtherTenants(store, from, to, names);
      const times: number[] = [];
      // Whole minutes: the minute in which the range starts is counted in full, as in the usage list and overview.
      const first = from - (from % MINUTE);
      for (let t = first - (first % step); t < to; t += step) times.push(t);
      const index = new Map(times.map((t, i) => [t, i]));
      const empty = () => ({ requests: times.map(() => 0), tokens: times.map(() => 0) });

      const points = new Map(chosen.map((t) => [t.tenant, empty()]));
      const restPoints = empty();
      const fill = (rows: readonly (TenantSums & { t: number })[], pick: (r: TenantSums) => ReturnType<typeof empty> | undefined) => {
        for (const r of rows) {
          const target = pick(r);
          const i = index.get(r.t);
          if (target && i !== undefined) { target.requests[i] = r.requests; target.tokens[i] = r.tokens; }
        }
      };
      fill(await readTenantSteps(store, from, to, step, names, true), (r) => points.get(r.tenant));
      // The rest straight from the store rather than total minus the chosen: rows stored between two queries could
      // otherwise make it negative.
      fill(await readTenantSteps(store, from, to, step, names, false), () => restPoints);
      const withCost = (p: { requests: number[]; tokens: number[] }) => ({ ...p, cost: p.requests.map((n, i) => usageCost(config.pricing, n, p.tokens[i])) });
      const others = { tenants: rest.tenants, ...sums(rest) };
      const all = { requests: others.requests + present.reduce((n, t) => n + t.requests, 0), tokens: others.tokens + present.reduce((n, t) => n + t.tokens, 0) };
      const totals = { ...sums(all), tenants: others.tenants + present.length };
      return {
        range: name, from, to, step_ms: step, by,
        tenant_label: config.tenant_label,
        currency: config.pricing.currency,
        pricing: { per_1k_tokens: config.pricing.per_1k_tokens, per_request: config.pricing.per_request },
        totals,
        times,
        series: chosen.map((t) => ({ ...t, points: withCost(points.get(t.tenant)!) })),
        other: { ...others, points: withCost(restPoints) },
      };
    },
  });
}
