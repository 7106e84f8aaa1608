// Usage and cost per tenant over the last hour, day or week: totals, the busiest tenants over time (stacked), every
// tenant's figures and share, and the billing export. Live while open. Figures come from capture's per-minute rollups
// (GET /api/gateway/usage/series for totals and the chart, GET /api/gateway/usage for the table).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { Chart } from '../../components/chart.js';
import { countAxis, moneyAxis } from '../../components/chart-scales.js';
import { useChartZoom, ZoomNote, type ChartZoom } from '../../components/chart-zoom.js';
import { useOpeningRange } from '../../components/opening-range.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import { PageHeader } from '../../components/page-header.js';
import { RangePicker, RANGES, type RangeName } from '../../components/range-picker.js';
import { Segmented } from '../../components/segmented.js';
import { Skeleton } from '../../components/skeleton.js';
import { Stat, Stats } from '../../components/stat.js';
import { useLive, useWhileVisible } from '../../data/live.js';
import { throttle } from '../../data/throttle.js';
import { useResource } from '../../data/use-resource.js';
import { formatCompact, formatInteger, formatMoney } from '../../format/numbers.js';
import { formatClock } from '../../format/time.js';
import { LiveBadge } from '../../shell/live-badge.js';
import { useChoice } from '../../shell/router.js';
import { MEASURES, type Measure, type UsageList, type UsageSeries } from './usage-api.js';
import {
  CHARTED_TENANTS, formatMeasure, formatMeasureShort, leaderText, MEASURE_TEXT, pricingText, stepText, tenantName, usageChartSeries,
} from './usage-figures.js';
import { NoUsageInRange, NoUsageYet, UnlabelledHint } from './usage-hints.js';
import { TenantTable } from './usage-tenants.js';

const RANGE_TEXT: Record<RangeName, string> = { '1h': 'the last hour', '24h': 'the last 24 hours', '7d': 'the last 7 days' };
/** Tenants listed in the table: the API's largest page. */
const LIST_LIMIT = 200;
/** Live refreshes at most this often, in ms, however busy the gateway. */
const LIVE_REFRESH_MS = 5000;

const measureOptions = MEASURES.map((m) => ({ value: m, label: MEASURE_TEXT[m].label, description: `Show ${MEASURE_TEXT[m].noun}` }));

/** Exact below a million (figures people bill from), compact above so a card never overflows. */
const formatCount = (n: number): string => (n < 1e6 ? formatInteger(n) : formatCompact(n));

function UsageStats({ s, unlabelled, measure, range }: { s: UsageSeries; unlabelled: number; measure: Measure; range: RangeName }) {
  const t = s.totals;
  const prices = pricingText(s.pricing, s.currency);
  return (
    <Stats label={`Usage in ${RANGE_TEXT[range]}`}>
      <Stat label="Requests" value={formatCount(t.requests)}
        detail={unlabelled ? `${formatInteger(unlabelled)} without a tenant label` : 'every one with a tenant'} />
      <Stat label="Tokens" value={formatCount(t.tokens)}
        detail={t.tokens ? `${formatCompact(t.tokens / Math.max(1, t.requests))} per request on average` : 'no rule meters tokens yet'} />
      <Stat label={`Cost (${s.currency})`} value={formatMoney(t.cost, s.currency)} tone={t.cost > 0 ? 'accent' : 'neutral'}
        detail={prices ?? 'no prices set in capture.pricing'} />
      <Stat label="Tenants" value={formatInteger(t.tenants)} detail={leaderText(s, measure)} />
    </Stats>
  );
}

function UsageChart({ s, measure, onMeasure, range, zoom }: { s: UsageSeries; measure: Measure; onMeasure(m: Measure): void; range: RangeName; zoom: ChartZoom }) {
  const series = useMemo(() => usageChartSeries(s, measure), [s, measure]);
  const step = stepText(s.step_ms);
  const noun = MEASURE_TEXT[measure].noun;
  const parts = [...s.series.slice(0, CHARTED_TENANTS).map((t) => `${tenantName(t.tenant)} ${formatMeasure(measure, t[measure], s.currency)}`)];
  if (s.other.tenants) parts.push(`other tenants ${formatMeasure(measure, s.other[measure], s.currency)}`);
  const busiest = s.series.length > 1 ? `the ${Math.min(s.series.length, CHARTED_TENANTS)} busiest tenants stacked` : 'by tenant';
  return (
    <Card title="Usage over time" description={`${MEASURE_TEXT[measure].label} per ${step}, ${busiest}${s.other.tenants ? ', the rest in grey' : ''}`}
      class="chart-card usage-chart" actions={<Segmented label="Measure" options={measureOptions} value={measure} onChange={onMeasure} />}>
      <Chart times={s.times} stepMs={s.step_ms} series={series} stacked height={240} zoom={zoom.zoom} onZoom={zoom.onZoom}
        format={(v) => formatMeasureShort(measure, v, s.currency)} axis={measure === 'cost' ? moneyAxis(s.currency) : countAxis} minMax={measure === 'cost' ? 0.01 : 4}
        summary={`${MEASURE_TEXT[measure].label} per ${step} over ${RANGE_TEXT[range]}, stacked by tenant: ${parts.join(', ') || 'none'}; ` +
          `${formatMeasure(measure, s.totals[measure], s.currency)} ${noun} in all.`} />
    </Card>
  );
}

function UsageSkeleton() {
  return (
    <div class="stack" role="status" aria-label="Loading the usage">
      <div class="stats stats-skeleton">{Array.from({ length: 4 }, (_, i) => <Skeleton key={i} height={78} />)}</div>
      <Skeleton height={300} />
      <Skeleton height={200} />
    </div>
  );
}

/** Requests per bucket, every tenant summed: what decides the range the page opens on. */
const usageCounts = (s: UsageSeries): number[] =>
  s.times.map((_, i) => s.series.reduce((n, t) => n + (t.points.requests[i] ?? 0), s.other.points.requests[i] ?? 0));

/** Keeps the last answer for the same range on screen while another measure loads, so the page does not flash. */
function useSteady(data: UsageSeries | undefined, range: RangeName): UsageSeries | undefined {
  const last = useRef<UsageSeries | undefined>(undefined);
  if (data) last.current = data;
  return data ?? (last.current?.range === range ? last.current : undefined);
}

export default function UsagePage() {
  const opening = useOpeningRange('range', useChoice('range', RANGES, '24h'), '1h');
  const { range, choose: setRange } = opening;
  const [measure, setMeasure] = useChoice('by', MEASURES, 'requests');
  const series = useResource<UsageSeries>(`/api/gateway/usage/series?range=${range}&by=${measure}&top=${CHARTED_TENANTS}`, 'the usage over time');
  const zoom = useChartZoom(range);
  useEffect(() => opening.look(series.data && { times: series.data.times, counts: usageCounts(series.data) }), [series.data]);
  const list = useResource<UsageList>(`/api/gateway/usage?range=${range}&limit=${LIST_LIMIT}`, 'the usage per tenant');
  const s = useSteady(opening.settled ? series.data : undefined, range);
  const l = list.data;

  // Refreshes on every captured batch (throttled), and as the window slides while nothing arrives.
  const reload = useMemo(() => throttle(() => { series.reload(); list.reload(); }, LIVE_REFRESH_MS), [series.reload, list.reload]);
  useEffect(() => () => reload.cancel(), [reload]);
  useLive('gateway.record', reload);
  useWhileVisible(reload, range === '1h' ? 60_000 : 5 * 60_000);

  const [updated, setUpdated] = useState<number>();
  useEffect(() => { if (series.data) setUpdated(Date.now()); }, [series.data]);
  // Whether anything was ever captured decides between "nothing in this range" and "nothing yet".
  const ever = useResource<{ data: unknown[] }>(s && s.totals.requests === 0 ? '/api/gateway/records?limit=1' : null, 'the latest record');

  const error = series.error ?? list.error;
  const label = s?.tenant_label ?? 'tenant';
  const unlabelled = l?.data.find((t) => t.tenant === '')?.requests ?? 0;
  const empty = s?.totals.requests === 0;
  return (
    <>
      <PageHeader title="Usage and cost" subtitle={<>Requests, metered tokens and cost per tenant, named by the policy's <code class="inline-code">{label}</code> label.</>}
        actions={<>
          <LiveBadge />
          {updated && <span class="updated" aria-live="off">Updated {formatClock(updated)}</span>}
          <RangePicker value={range} onChange={setRange} />
          {/* A plain same-origin link: the session cookie authenticates the download; no token is ever in a URL. */}
          <a class="button button-secondary" href={`/api/gateway/usage.csv?range=${range}`} download
            title={`Billing export for ${RANGE_TEXT[range]}: one row per day and tenant`}>
            <Icon name="download" /> Export CSV
          </a>
        </>} />
      {error && <ErrorState error={error} onRetry={() => { series.reload(); list.reload(); }} />}
      {!error && (!s || !l || (empty && !ever.data)) && <UsageSkeleton />}
      {!error && s && l && empty && ever.data && (ever.data.data.length === 0
        ? <NoUsageYet label={label} />
        : <NoUsageInRange rangeText={RANGE_TEXT[range]} onWiden={range === '7d' ? undefined : () => setRange('7d')} />)}
      {!error && s && l && !empty && (
        <div class="stack">
          <UsageStats s={s} unlabelled={unlabelled} measure={measure} range={range} />
          {unlabelled > 0 && <UnlabelledHint requests={unlabelled} total={s.totals.requests} label={label} />}
          <ZoomNote zoom={zoom} stepMs={s.step_ms} />
          <UsageChart s={s} measure={measure} onMeasure={setMeasure} range={range} zoom={zoom} />
          <TenantTable list={l} s={s} measure={measure} />
        </div>
      )}
    </>
  );
}
