// The usage page's logic, apart from drawing: names, colours, shares and the chart's series. Pure, so it is tested
// in Node (tests/unit/ui/areas/gateway/usage-figures.test.ts).
import type { ChartSeries } from '../../components/chart.js';
import { formatCompact, formatInteger, formatMoney, formatPercent } from '../../format/numbers.js';
import type { Measure, UsageSeries } from './usage-api.js';

/** Colours of the charted tenants, in rank order; the rest share `OTHER_COLOR`. */
export const TENANT_COLORS = ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5'] as const;
export const OTHER_COLOR = '--chart-other';
/** Tenants the chart draws one by one: as many as it has distinct colours. */
export const CHARTED_TENANTS = TENANT_COLORS.length;

/** What the page calls the tenant `""`: exchanges that carried no tenant label. */
export const UNLABELLED = '(no tenant label)';

export const tenantName = (tenant: string): string => (tenant === '' ? UNLABELLED : tenant);

export const MEASURE_TEXT: Record<Measure, { label: string; noun: string }> = {
  requests: { label: 'Requests', noun: 'requests' },
  tokens: { label: 'Tokens', noun: 'tokens' },
  cost: { label: 'Cost', noun: 'cost' },
};

/** `part` as a share of `whole`; 0 when the whole is nothing (no traffic is no share, not NaN). */
export const shareOf = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);

/** A figure of `measure`, exact: counts with separators, cost as money. */
export function formatMeasure(measure: Measure, value: number, currency: string): string {
  return measure === 'cost' ? formatMoney(value, currency) : formatInteger(value);
}

/** A figure of `measure` for an axis or a readout: counts compact (12.3k), cost as money. */
export function formatMeasureShort(measure: Measure, value: number, currency: string): string {
  return measure === 'cost' ? formatMoney(value, currency) : formatCompact(value);
}

/** The chart's series for `measure`: one per charted tenant (busiest at the bottom), then the rest when there is any. */
export function usageChartSeries(s: UsageSeries, measure: Measure): ChartSeries[] {
  const out: ChartSeries[] = s.series.slice(0, CHARTED_TENANTS).map((t, i) => ({
    label: tenantName(t.tenant), color: TENANT_COLORS[i], kind: 'bars', values: t.points[measure],
  }));
  if (s.other.tenants > 0) {
    out.push({ label: s.other.tenants === 1 ? '1 other tenant' : `${formatInteger(s.other.tenants)} other tenants`, color: OTHER_COLOR, kind: 'bars', values: s.other.points[measure] });
  }
  return out;
}

/** The colour token of a tenant the chart draws, or undefined when it is among the rest. */
export function tenantColor(s: UsageSeries, tenant: string): string | undefined {
  const at = s.series.slice(0, CHARTED_TENANTS).findIndex((t) => t.tenant === tenant);
  return at === -1 ? undefined : TENANT_COLORS[at];
}

/** The prices in force as one line (`$0.50 per 1k tokens + $0.001 per request`), or null when nothing is priced. */
export function pricingText(pricing: UsageSeries['pricing'], currency: string): string | null {
  const parts = [];
  if (pricing.per_1k_tokens) parts.push(`${formatMoney(pricing.per_1k_tokens, currency)} per 1k tokens`);
  if (pricing.per_request) parts.push(`${formatMoney(pricing.per_request, currency)} per request`);
  return parts.length ? parts.join(' + ') : null;
}

/** The policy lines that name tenants by a request header, for the configured label. */
export function tenantLabelSnippet(label: string): string {
  return `labels: { ${label}: header:X-Tenant-Id }`;
}

/** The step of the chart in words, for titles: `minute`, `15 minutes`, `hour`. */
export function stepText(stepMs: number): string {
  const minutes = Math.round(stepMs / 60_000);
  if (minutes === 1) return 'minute';
  if (minutes % 60 === 0) return minutes === 60 ? 'hour' : `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

/** The busiest tenant by `measure` and its share, as a stat's detail: `acme: 62% of requests`. */
export function leaderText(s: UsageSeries, measure: Measure): string | undefined {
  const top = s.series[0];
  if (!top || s.totals[measure] <= 0) return undefined;
  return `${tenantName(top.tenant)}: ${formatPercent(shareOf(top[measure], s.totals[measure]))} of ${MEASURE_TEXT[measure].noun}`;
}
