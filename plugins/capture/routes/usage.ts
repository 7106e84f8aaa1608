import { Readable } from 'node:stream';
import { CSV_BODY, csvCell, type HttpRoutes, type Store } from '@vigil/plugin-sdk';
import type { CaptureConfig } from '../../../gateway/records/lane-tasks.js';
import { readTenantPage, readTenantsByName } from '../../../gateway/records/rollup-query.js';
import { rangeQuery, resolveRange } from '../time-range.js';
import { usageCost as cost } from '../usage-cost.js';
import { pageOf, pageProperties } from './page-query.js';
import { usageSchema } from './schemas.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function registerUsageRoutes(http: HttpRoutes, store: Store, config: CaptureConfig): void {
  http.route({
    method: 'GET', path: '/api/gateway/usage', tags: ['gateway'],
    summary: 'Requests, tokens and cost per tenant',
    response: usageSchema,
    description: 'Tenants ordered by requests, busiest first. Exchanges without the tenant label count under the tenant "".',
    query: { type: 'object', properties: { range: rangeQuery, ...pageProperties } },
    async handler(ctx) {
      const { from, to } = resolveRange(String(ctx.query.range ?? '24h'));
      const { limit, offset } = pageOf(ctx.query);
      const rows = await readTenantPage(store, from, to, limit, offset);
      return {
        range: ctx.query.range ?? '24h', from, to, tenant_label: config.tenant_label, currency: config.pricing.currency,
        data: rows.map((r) => ({ ...r, cost: cost(config.pricing, r.requests, r.tokens) })),
        limit,
        offset,
      };
    },
  });
  http.route({
    method: 'GET', path: '/api/gateway/usage.csv', tags: ['gateway'],
    summary: 'Billing export: requests, tokens and cost per tenant per day (CSV)',
    response: CSV_BODY,
    description: `Streamed: one day at a time, ${CSV_PAGE.toLocaleString('en-US')} tenants a read, so a year of a busy gateway never sits in memory. `
      + 'Days are UTC; the minute in which the range starts counts in full.',
    query: { type: 'object', properties: { range: { type: 'string', enum: Object.keys(CSV_RANGES), default: '7d', description: 'One of 1h, 24h, 7d, 30d, 90d, 365d, ending now.' } } },
    handler(ctx) {
      const name = String(ctx.query.range ?? '7d') as keyof typeof CSV_RANGES;
      const to = Date.now();
      const from = to - CSV_RANGES[name];
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="vigil-usage-${new Date(from).toISOString().slice(0, 10)}.csv"`);
      return Readable.from(csvLines(store, config, from - (from % 60_000), to));
    },
  });
}

/** Ranges of the billing export, in ms, ending now. */
export const CSV_RANGES = { '1h': HOUR, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY, '90d': 90 * DAY, '365d': 365 * DAY } as const;

/** Tenants one read of the export brings: what the export holds in memory at once. */
export const CSV_PAGE = 1_000;

/**
 * The export's lines, day by day and tenant by tenant (keyset: `tenant >` the last one read), each read asked for
 * only when the response has taken the lines before it.
 */
async function* csvLines(store: Store, config: CaptureConfig, from: number, to: number): AsyncGenerator<string> {
  yield 'date,tenant,requests,tokens,cost,currency\r\n';
  for (let day = from - (from % DAY); day < to; day += DAY) {
    const date = new Date(day).toISOString().slice(0, 10);
    let last: string | null = null;
    for (;;) {
      const rows = await readTenantsByName(store, Math.max(day, from), Math.min(day + DAY, to), last, CSV_PAGE);
      if (rows.length) {
        yield rows.map((r) => [date, r.tenant, r.requests, r.tokens, cost(config.pricing, r.requests, r.tokens), config.pricing.currency].map(csvCell).join(',') + '\r\n').join('');
      }
      if (rows.length < CSV_PAGE) break;
      last = rows[rows.length - 1].tenant;
    }
  }
}
