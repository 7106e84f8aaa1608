import { Readable } from 'node:stream';
import { CSV_BODY, csvCell, httpError, type HttpRoutes, type RouteContext, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import type { EvalScores } from '../eval-scores.js';
import type { ProjectDirectory } from '../project-directory.js';
import { monthOf } from '../usage-book.js';
import { BILLING_PAGE_MAX, billingMonth, NEAR_LIMIT, readBills, type BillingMonth } from './billing-query.js';
import { billingSchema, monthQuery, usageEventsSchema } from './billing-schemas.js';
import { decodeCursor, EVENTS_PAGE_DEFAULT, EVENTS_PAGE_MAX, readUsageEvents } from './usage-events.js';

export interface BillingDeps {
  store: Store;
  projects: ProjectDirectory;
  scores: EvalScores;
  now?: () => number;
}

const BOUND = `Bounded: a page of at most ${BILLING_PAGE_MAX} projects, read from the daily usage rollup (at most 31 × 8 rows `
  + 'per project), the month\'s usage rows and one grouped sum of the evals\' cost; never the traces.';

/**
 * Billing, behind the dashboard token: per project and UTC month, the stored traces' items, tokens and cost, the
 * evals' cost, and the month against the plan's limits and budget cap; as JSON, as CSV, and as CloudEvents for an
 * external billing system (OpenMeter).
 */
export function registerBillingRoutes(http: HttpRoutes, deps: BillingDeps): void {
  const now = deps.now ?? Date.now;
  const monthOfQuery = (ctx: RouteContext): BillingMonth => billingMonth(typeof ctx.query.month === 'string' ? ctx.query.month : monthOf(now()));

  http.route({
    method: 'GET', path: '/api/llm/billing', tags: ['llm'],
    summary: 'Per project, a month\'s items, tokens, application and eval cost, against the plan\'s limits and budget',
    description: `${BOUND} Items, tokens and cost count the stored traces whose time is in the month; \`counted\` is what ingest `
      + 'counted in the month the calls arrived (sampled-out calls included), which `items_per_month` and the budget cap hold to. '
      + '`download=1` answers it as an attachment (the JSON export).',
    query: {
      type: 'object',
      properties: {
        month: monthQuery,
        limit: { type: 'integer', minimum: 1, maximum: BILLING_PAGE_MAX, default: 50 },
        offset: { type: 'integer', minimum: 0, default: 0 },
        download: { type: 'string', enum: ['0', '1'] },
      },
    },
    response: billingSchema,
    async handler(ctx) {
      const m = monthOfQuery(ctx);
      const limit = Number(ctx.query.limit ?? 50);
      const offset = Number(ctx.query.offset ?? 0);
      const data = await readBills(deps.store, deps.projects, deps.scores, m, { limit, offset });
      if (ctx.query.download === '1') ctx.set('Content-Disposition', `attachment; filename="vigil-llm-billing-${m.month}.json"`);
      return { month: m.month, from: new Date(m.from).toISOString(), to: new Date(m.to).toISOString(), near_ratio: NEAR_LIMIT, data, limit, offset };
    },
  });

  http.route({
    method: 'GET', path: '/api/llm/billing.csv', tags: ['llm'],
    summary: 'Billing export: one line per project for a month (CSV)',
    description: `Streamed, ${BILLING_PAGE_MAX} projects a read; ${BOUND} Texts a spreadsheet would run as a formula start with an apostrophe.`,
    query: { type: 'object', properties: { month: monthQuery } },
    response: CSV_BODY,
    handler(ctx) {
      const m = monthOfQuery(ctx);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="vigil-llm-billing-${m.month}.csv"`);
      return Readable.from(csvLines(deps, m));
    },
  });

  http.route({
    method: 'GET', path: '/api/llm/billing/events', tags: ['llm'],
    summary: 'Usage events of a month as CloudEvents 1.0 (OpenMeter\'s ingest format), a page at a time',
    description: `One event per project, day of the calls and day they arrived, for arrival days that are over: its figures never `
      + 'change, so an export sent again repeats the same ids with the same data (OpenMeter deduplicates on source and id). '
      + `Page with \`after\` = the last page's \`next\`; at most ${EVENTS_PAGE_MAX} events a page (one keyset read of the rollup).`,
    query: {
      type: 'object',
      properties: {
        month: monthQuery,
        after: { type: 'string', maxLength: 400 },
        limit: { type: 'integer', minimum: 1, maximum: EVENTS_PAGE_MAX, default: EVENTS_PAGE_DEFAULT },
      },
    },
    response: usageEventsSchema,
    async handler(ctx) {
      const m = monthOfQuery(ctx);
      const after = typeof ctx.query.after === 'string' ? decodeCursor(ctx.query.after) : null;
      if (typeof ctx.query.after === 'string' && !after) throw httpError(LlmErrors.BILLING_CURSOR, 'after must be the `next` of an earlier page');
      const page = await readUsageEvents(deps.store, m, after, Number(ctx.query.limit ?? EVENTS_PAGE_DEFAULT), now());
      return { month: m.month, ...page };
    },
  });
}

const CSV_HEADER = ['month', 'project', 'plan', 'items', 'errors', 'input_tokens', 'output_tokens', 'app_cost_usd', 'eval_cost_usd',
  'total_cost_usd', 'items_counted', 'items_per_month', 'spend_counted_usd', 'budget_usd', 'state'];

/** The CSV's lines, a page of projects at a time, each read asked for only when the response has taken the lines before. */
async function* csvLines(deps: BillingDeps, m: BillingMonth): AsyncGenerator<string> {
  yield `${CSV_HEADER.join(',')}\r\n`;
  for (let offset = 0; ; offset += BILLING_PAGE_MAX) {
    const bills = await readBills(deps.store, deps.projects, deps.scores, m, { limit: BILLING_PAGE_MAX, offset });
    if (bills.length) {
      yield bills.map((b) => [m.month, b.project, b.plan ?? '', b.items, b.errors, b.input_tokens, b.output_tokens, b.cost_usd, b.eval_cost_usd,
        b.total_cost_usd, b.counted.items, b.plan_limits.items_per_month, b.counted.cost_usd, b.plan_limits.monthly_usd, b.state]
        .map(csvCell).join(',') + '\r\n').join('');
    }
    if (bills.length < BILLING_PAGE_MAX) break;
  }
}
