import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { UsageSeries } from '../../../../../ui/src/areas/gateway/usage-api.js';
import {
  formatMeasure, formatMeasureShort, leaderText, OTHER_COLOR, pricingText, shareOf, stepText, tenantColor, tenantLabelSnippet,
  tenantName, usageChartSeries,
} from '../../../../../ui/src/areas/gateway/usage-figures.js';

const points = (requests: number[], tokens = requests.map(() => 0), cost = requests.map(() => 0)) => ({ requests, tokens, cost });

function answer(tenants: [string, number][], other: { tenants: number; requests: number } = { tenants: 0, requests: 0 }): UsageSeries {
  const requests = tenants.reduce((n, [, r]) => n + r, 0) + other.requests;
  return {
    range: '24h', from: 0, to: 120_000, step_ms: 60_000, by: 'requests', tenant_label: 'org', currency: 'EUR',
    pricing: { per_1k_tokens: 0, per_request: 0 },
    totals: { requests, tokens: 0, cost: 0, tenants: tenants.length + other.tenants },
    times: [0, 60_000],
    series: tenants.map(([tenant, r]) => ({ tenant, requests: r, tokens: 10 * r, cost: r / 100, points: points([r, 0], [10 * r, 0], [r / 100, 0]) })),
    other: { ...other, tokens: 0, cost: 0, points: points([other.requests, 0]) },
  };
}

test('the unlabelled tenant is named for people; every other name is shown as it is', () => {
  assert.is(tenantName(''), '(no tenant label)');
  assert.is(tenantName('acme'), 'acme');
  assert.is(tenantName(' '), ' ');
});

test('chart series: one per tenant in rank order with its own colour, then the rest in grey when there is a rest', () => {
  const s = answer([['acme', 5], ['', 3]], { tenants: 4, requests: 2 });
  const series = usageChartSeries(s, 'requests');
  assert.equal(series.map((x) => [x.label, x.color, x.kind]), [
    ['acme', '--chart-1', 'bars'], ['(no tenant label)', '--chart-2', 'bars'], ['4 other tenants', OTHER_COLOR, 'bars'],
  ]);
  assert.equal(series[0].values, [5, 0]);
  assert.equal(usageChartSeries(s, 'tokens')[0].values, [50, 0]);
  assert.equal(usageChartSeries(s, 'cost')[0].values, [0.05, 0]);
  assert.is(usageChartSeries(answer([['a', 1]], { tenants: 1, requests: 1 }), 'requests')[1].label, '1 other tenant');
  assert.equal(usageChartSeries(answer([['a', 1]]), 'requests').map((x) => x.label), ['a'], 'no rest, no grey series');
});

test('chart series: at most five tenants drawn one by one, and the table\'s swatches match them', () => {
  const s = answer([['a', 9], ['b', 8], ['c', 7], ['d', 6], ['e', 5], ['f', 4]]);
  assert.is(usageChartSeries(s, 'requests').length, 5);
  assert.is(tenantColor(s, 'a'), '--chart-1');
  assert.is(tenantColor(s, 'e'), '--chart-5');
  assert.is(tenantColor(s, 'f'), undefined);
  assert.is(tenantColor(s, 'zzz'), undefined);
});

test('shares: of the whole, and nothing of nothing', () => {
  assert.is(shareOf(1, 4), 0.25);
  assert.is(shareOf(0, 0), 0);
  assert.is(shareOf(3, 0), 0);
});

test('figures of each measure: counts exact or compact, cost as money in the configured currency', () => {
  assert.is(formatMeasure('requests', 12345, 'EUR'), '12,345');
  assert.is(formatMeasure('cost', 2.003, 'EUR'), '€2.00');
  assert.is(formatMeasure('cost', 0.0045, 'USD'), '$0.0045');
  assert.is(formatMeasureShort('tokens', 12345, 'EUR'), '12.3k');
  assert.is(formatMeasureShort('cost', 1.5, 'GBP'), '£1.50');
});

test('prices in force as one line, or none when nothing is priced', () => {
  assert.is(pricingText({ per_1k_tokens: 0.5, per_request: 0.001 }, 'EUR'), '€0.50 per 1k tokens + €0.001 per request');
  assert.is(pricingText({ per_1k_tokens: 0, per_request: 0.01 }, 'USD'), '$0.01 per request');
  assert.is(pricingText({ per_1k_tokens: 0, per_request: 0 }, 'USD'), null);
});

test('the busiest tenant and its share; nothing to say without traffic', () => {
  assert.is(leaderText(answer([['acme', 3], ['b', 1]]), 'requests'), 'acme: 75% of requests');
  assert.is(leaderText(answer([['', 1]]), 'requests'), '(no tenant label): 100% of requests');
  assert.is(leaderText(answer([]), 'requests'), undefined);
  assert.is(leaderText(answer([['a', 1]]), 'tokens'), undefined, 'no tokens metered');
});

test('steps in words, and the policy line for the configured label', () => {
  assert.is(stepText(60_000), 'minute');
  assert.is(stepText(900_000), '15 minutes');
  assert.is(stepText(3_600_000), 'hour');
  assert.is(stepText(86_400_000), '24 hours');
  assert.is(tenantLabelSnippet('customer'), 'labels: { customer: header:X-Tenant-Id }');
});

test.run();
