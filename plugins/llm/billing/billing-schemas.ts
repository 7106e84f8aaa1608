// The answers of the billing routes (billing-routes.ts).
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';

const count: JsonSchema = { type: 'integer', minimum: 0 };
const usd: JsonSchema = { type: 'number' };
const nullableNumber: JsonSchema = { type: ['number', 'null'] };
const state: JsonSchema = { enum: ['none', 'ok', 'near', 'over'], description: 'none: no limit; near: at 80 % or more; over: at or past it.' };

/** `YYYY-MM`, a UTC calendar month. */
export const monthQuery: JsonSchema = { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'A UTC month, `2026-03`. Default: the current one.' };

const limitUsage = closedObject({
  name: { enum: ['items_per_month', 'monthly_usd'] },
  used: { type: 'number' },
  limit: nullableNumber,
  ratio: { ...nullableNumber, description: 'used / limit; null without a limit.' },
  state,
}, { title: 'BillingLimitUsage' });

const projectBill = closedObject({
  project: { type: 'string' },
  plan: { type: ['string', 'null'] },
  items: { ...count, description: 'Stored traces whose time is in the month.' },
  errors: count,
  input_tokens: count,
  output_tokens: count,
  cost_usd: { ...usd, description: 'The application\'s calls (USD).' },
  eval_cost_usd: { ...usd, description: 'The evals\' own calls (judges, embeddings) on the month\'s traces (USD).' },
  total_cost_usd: usd,
  counted: closedObject({ items: count, cost_usd: usd, sampled_out: count }, {
    title: 'BillingCounted', description: 'What ingest counted in the month the calls arrived: what limits and the budget hold to.',
  }),
  limits: { type: 'array', items: limitUsage },
  state,
  plan_limits: closedObject({
    items_per_month: { type: ['integer', 'null'] }, monthly_usd: nullableNumber, items_per_batch: count, body_bytes: count, retention_ms: count,
  }, { title: 'BillingPlanLimits' }),
}, { title: 'ProjectBill' });

export const billingSchema = closedObject({
  month: { type: 'string' },
  from: { type: 'string', format: 'date-time' },
  to: { type: 'string', format: 'date-time' },
  near_ratio: { type: 'number', description: 'The share of a limit from which a project is `near` it.' },
  data: { type: 'array', items: projectBill },
  limit: count,
  offset: count,
}, { title: 'BillingMonth' });

const usageEvent = closedObject({
  specversion: { const: '1.0' },
  id: { type: 'string', description: 'Stable: `<project id>.<epoch day>.<arrival epoch day>`.' },
  source: { type: 'string' },
  type: { type: 'string' },
  subject: { type: 'string', description: 'The project\'s name.' },
  time: { type: 'string', format: 'date-time' },
  datacontenttype: { const: 'application/json' },
  data: closedObject({
    // A trace replaced later (a Langfuse update) is counted as a correction on the day of the update: its figures may be negative.
    project: { type: 'string' }, day: { type: 'string' }, items: count, errors: { type: 'integer' }, input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' }, cost_usd: usd,
  }, { title: 'UsageEventData' }),
}, { title: 'UsageCloudEvent', description: 'A CloudEvents 1.0 event in JSON, as OpenMeter ingests it.' });

export const usageEventsSchema = closedObject({
  month: { type: 'string' },
  data: { type: 'array', items: usageEvent },
  next: { type: ['string', 'null'], description: 'The `after` of the next page; null on the last.' },
  closed_before: { type: 'string', description: 'Events cover arrival days before this UTC date: later ones come in a later export.' },
}, { title: 'UsageEventPage' });
