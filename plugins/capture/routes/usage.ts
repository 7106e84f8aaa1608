import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import type { CaptureConfig } from '../types.js';
import { rangeQuery, resolveRange } from '../time-range.js';
import { usageCost as cost } from '../usage-cost.js';
import { pageOf, pageProperties } from './page-query.js';

const DAY = 86_400_000;

/**
 * One RFC 4180 field, always quoted. A text that a spreadsheet would run as a formula (it starts with = + - @, a
 * tab or a carriage return: OWASP's CSV injection list) gets a leading apostrophe. Numbers are never neutralised.
 */
export const csvCell = (v: string | number): string => {
  const s = String(v);
  return `"${(typeof v === 'string' && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s).replace(/"/g, '""')}"`;
};

export function registerUsageRoutes(http: HttpRoutes, store: Store, config: CaptureConfig): void {
  const rollups = store.table('rollups');
  http.route({
    method: 'GET', path: '/api/gateway/usage', tags: ['gateway'],
    summary: 'Requests, tokens and cost per tenant',
    description: 'Tenants ordered by requests, busiest first. Exchanges without the tenant label count under the tenant "".',
    query: { type: 'object', properties: { range: rangeQuery, ...pageProperties } },
    async handler(ctx) {
      const { from, to } = resolveRange(String(ctx.query.range ?? '24h'));
      const { limit, offset } = pageOf(ctx.query);
      const rows = await store.query<{ tenant: string; requests: number | string; tokens: number | string }>(
        `SELECT tenant, SUM(requests) AS requests, SUM(tokens) AS tokens FROM ${rollups} WHERE bucket >= ? AND bucket < ?
         GROUP BY tenant ORDER BY SUM(requests) DESC, tenant LIMIT ? OFFSET ?`,
        [from - (from % 60_000), to, limit, offset]);
      return {
        range: ctx.query.range ?? '24h', from, to, tenant_label: config.tenant_label, currency: config.pricing.currency,
        data: rows.map((r) => {
          const requests = Number(r.requests);
          const tokens = Number(r.tokens);
          return { tenant: r.tenant, requests, tokens, cost: cost(config.pricing, requests, tokens) };
        }),
        limit,
        offset,
      };
    },
  });
  http.route({
    method: 'GET', path: '/api/gateway/usage.csv', tags: ['gateway'],
    summary: 'Billing export: requests, tokens and cost per tenant per day (CSV)',
    query: { type: 'object', properties: { range: { ...rangeQuery, default: '7d' } } },
    async handler(ctx) {
      const { from, to } = resolveRange(String(ctx.query.range ?? '7d'));
      const rows = await store.query<{ day: number; tenant: string; requests: number; tokens: number }>(
        `SELECT (bucket / ${DAY}) * ${DAY} AS day, tenant, SUM(requests) AS requests, SUM(tokens) AS tokens FROM ${rollups}
         WHERE bucket >= ? AND bucket < ? GROUP BY (bucket / ${DAY}), tenant ORDER BY day, tenant`, [from - (from % 60_000), to]);
      const lines = ['date,tenant,requests,tokens,cost,currency'];
      for (const r of rows) {
        const date = new Date(Number(r.day)).toISOString().slice(0, 10);
        const requests = Number(r.requests);
        const tokens = Number(r.tokens);
        lines.push([date, r.tenant, requests, tokens, cost(config.pricing, requests, tokens), config.pricing.currency].map(csvCell).join(','));
      }
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="vigil-usage-${new Date(from).toISOString().slice(0, 10)}.csv"`);
      ctx.body = lines.join('\r\n') + '\r\n';
      return undefined;
    },
  });
}
