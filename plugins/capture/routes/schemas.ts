// The answers of capture's routes: records, the overview, usage and rule usage.
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { governedRecordSchema } from '../../../gateway/records/governed-record-schema.js';

const count: JsonSchema = { type: 'integer', minimum: 0 };
const epochMs: JsonSchema = { type: 'integer', description: 'Epoch ms.' };
const range = { range: { type: 'string' }, from: epochMs, to: epochMs };

const summary = {
  requests: count,
  errors: count,
  error_rate: { type: 'number', minimum: 0, maximum: 1 },
  p95_ms: { type: ['number', 'null'], description: 'Estimated from latency buckets; null without requests.' },
  p99_ms: { type: ['number', 'null'] },
  tokens: count,
};

export const overviewSchema = closedObject({
  ...range,
  step_ms: count,
  ...summary,
  volume: { type: 'array', items: closedObject({ time: epochMs, ...summary }, { title: 'TrafficPoint' }) },
  top_routes: { type: 'array', items: closedObject({ route: { type: 'string' }, ...summary }, { title: 'RouteTraffic' }) },
}, { title: 'GatewayOverview' });

export const recordPageSchema = closedObject({
  data: { type: 'array', items: governedRecordSchema },
  limit: count,
  offset: count,
  next: { type: ['string', 'null'], description: 'Cursor of the older records (`before`); null on the last page.' },
  prev: { type: ['string', 'null'], description: 'Cursor of the newer records (`after`); null on the first page.' },
  truncated: { type: 'boolean', description: 'The page holds fewer records than `limit` because of their size; `next` goes on.' },
}, { title: 'GovernedRecordPage' });

export { governedRecordSchema };

export const ingestOutcomeSchema = closedObject({
  stored: count,
  duplicates: { ...count, description: 'Records skipped: already stored under their id.' },
  redacted_by_agent: { ...count, description: 'Stored records in which the agent\'s policy masked or removed what was sent in clear (their `agent_masked` says where).' },
  restricted: { ...count, description: 'Records not stored: the agent\'s policy captures nothing on their route.' },
}, { title: 'IngestOutcome' });

const ruleUsage = (rule: JsonSchema) => ({
  rule,
  requests: count,
  routes: {
    type: 'array',
    items: closedObject({ method: { type: 'string' }, path: { type: 'string' }, requests: count }, { title: 'RulePathUsage' }),
  },
  other_routes: count,
  other_requests: count,
});

export const ruleUsageSchema = closedObject({
  ...range,
  rules: { type: 'array', items: closedObject(ruleUsage({ type: 'string' }), { title: 'RuleUsage' }) },
  unmatched: closedObject(ruleUsage({ type: 'null' }), { title: 'UnmatchedUsage' }),
}, { title: 'PolicyRuleUsage' });

const sums = { requests: count, tokens: count, cost: { type: 'number', minimum: 0 } };

export const usageSchema = closedObject({
  ...range,
  tenant_label: { type: 'string', description: 'The label that names the tenant.' },
  currency: { type: 'string' },
  data: { type: 'array', items: closedObject({ tenant: { type: 'string' }, ...sums }, { title: 'TenantUsage' }) },
  limit: count,
  offset: count,
}, { title: 'UsageList' });

const points = closedObject({
  requests: { type: 'array', items: count },
  tokens: { type: 'array', items: count },
  cost: { type: 'array', items: { type: 'number' } },
}, { title: 'UsagePoints', description: 'One value per entry of `times`.' });

export const usageSeriesSchema = closedObject({
  ...range,
  step_ms: count,
  by: { enum: ['requests', 'tokens', 'cost'] },
  tenant_label: { type: 'string' },
  currency: { type: 'string' },
  pricing: closedObject({ per_1k_tokens: { type: 'number' }, per_request: { type: 'number' } }, { title: 'Pricing' }),
  totals: closedObject({ ...sums, tenants: count }),
  times: { type: 'array', items: epochMs },
  series: { type: 'array', items: closedObject({ tenant: { type: 'string' }, ...sums, points }, { title: 'TenantSeries' }) },
  other: closedObject({ tenants: count, ...sums, points }, { description: 'Every tenant without a series of its own, summed.' }),
}, { title: 'UsageSeries' });
