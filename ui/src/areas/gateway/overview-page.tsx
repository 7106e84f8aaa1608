// The gateway's overview: request volume, error rate, P95/P99 latency and top routes over the last hour, day or
// week, live while open. Figures come from capture's per-minute rollups (GET /api/gateway/overview).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { Chart, preloadCharts, type ChartSeries } from '../../components/chart.js';
import { countAxis, latencyAxis, percentAxis } from '../../components/chart-scales.js';
import { useChartZoom, ZoomNote, type ChartZoom } from '../../components/chart-zoom.js';
import { useOpeningRange } from '../../components/opening-range.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { RangePicker, RANGES, type RangeName } from '../../components/range-picker.js';
import { Skeleton } from '../../components/skeleton.js';
import { Stat, Stats } from '../../components/stat.js';
import { Table, type Column } from '../../components/table.js';
import { useLive, useWhileVisible } from '../../data/live.js';
import { throttle } from '../../data/throttle.js';
import { useResource } from '../../data/use-resource.js';
import { errorRateClass, errorRateTone } from '../../format/error-rate.js';
import { countFormat, formatCompact, formatInteger, formatLatency, formatPercent, formatRate } from '../../format/numbers.js';
import { formatClock } from '../../format/time.js';
import { LiveBadge } from '../../shell/live-badge.js';
import { Link, useChoice } from '../../shell/router.js';
import { shellInfo } from '../../shell/shell-info.js';
import { reachableUrl, type Overview, type ProxyStatus } from './gateway-api.js';

const RANGE_TEXT: Record<RangeName, string> = { '1h': 'the last hour', '24h': 'the last 24 hours', '7d': 'the last 7 days' };
const STEP_TEXT: Record<RangeName, string> = { '1h': 'minute', '24h': '15 minutes', '7d': 'hour' };
/** Live refreshes at most this often, in ms, however busy the gateway. */
const LIVE_REFRESH_MS = 5000;

/** Refreshes on every captured batch (throttled), and as the window slides while nothing arrives. */
function useLiveRefresh(reload: () => void, range: RangeName): void {
  const throttled = useMemo(() => throttle(reload, LIVE_REFRESH_MS), [reload]);
  useEffect(() => () => throttled.cancel(), [throttled]);
  useLive('gateway.record', throttled);
  useWhileVisible(reload, range === '1h' ? 60_000 : 5 * 60_000);
}

function OverviewStats({ o, range }: { o: Overview; range: RangeName }) {
  const minutes = (o.to - o.from) / 60_000;
  return (
    <Stats label={`Gateway figures for ${RANGE_TEXT[range]}`}>
      <Stat label="Requests" value={formatCompact(o.requests)} detail={`${formatRate(o.requests / minutes)} on average`} />
      <Stat label="Error rate" value={formatPercent(o.error_rate)} tone={errorRateTone(o.error_rate)}
        detail={o.errors === 1 ? '1 error (5xx or no answer)' : `${formatInteger(o.errors)} errors (5xx or no answer)`} />
      <Stat label="P95 latency" value={formatLatency(o.p95_ms)} detail="95 % of requests were faster" />
      <Stat label="P99 latency" value={formatLatency(o.p99_ms)} detail="99 % of requests were faster" />
      <Stat label="Tokens metered" value={formatCompact(o.tokens)} detail={o.tokens ? 'counted by meter.tokens rules' : 'no rule meters tokens yet'} />
    </Stats>
  );
}

/**
 * Set once per page load, when the overview's three charts have first drawn on their canvases: what
 * bench/ui-overview-time.ts measures from navigation start.
 */
export const CHARTS_DRAWN_MARK = 'vigil:overview-charts-drawn';
let chartsMarked = false;

/** Marks CHARTS_DRAWN_MARK when the charts with these names have all drawn once. */
function useChartsDrawnMark(names: readonly string[]): (name: string) => () => void {
  const drawn = useRef(new Set<string>());
  return (name) => () => {
    if (chartsMarked) return;
    drawn.current.add(name);
    if (names.every((n) => drawn.current.has(n))) {
      chartsMarked = true;
      performance.mark(CHARTS_DRAWN_MARK);
    }
  };
}
const CHART_NAMES = ['volume', 'errors', 'latency'] as const;

function OverviewCharts({ o, range, zoom }: { o: Overview; range: RangeName; zoom: ChartZoom }) {
  const drawn = useChartsDrawnMark(CHART_NAMES);
  const times = useMemo(() => o.volume.map((p) => p.time), [o]);
  const volume = useMemo<ChartSeries[]>(() => [
    { label: 'Requests', color: '--chart-1', kind: 'bars', values: o.volume.map((p) => p.requests) },
    { label: 'Errors', color: '--chart-error', kind: 'bars', values: o.volume.map((p) => p.errors) },
  ], [o]);
  const errorRate = useMemo<ChartSeries[]>(() => [
    { label: 'Error rate', color: '--chart-error', kind: 'area', values: o.volume.map((p) => (p.requests ? p.error_rate : null)) },
  ], [o]);
  const latency = useMemo<ChartSeries[]>(() => [
    { label: 'P95', color: '--chart-2', kind: 'line', values: o.volume.map((p) => p.p95_ms) },
    { label: 'P99', color: '--chart-3', kind: 'line', values: o.volume.map((p) => p.p99_ms) },
  ], [o]);
  const busiest = o.volume.reduce((best, p) => (p.requests > best.requests ? p : best), o.volume[0] ?? { requests: 0, time: o.from });
  const worstRate = o.volume.reduce((w, p) => Math.max(w, p.requests ? p.error_rate : 0), 0);
  const worstP99 = o.volume.reduce((w, p) => Math.max(w, p.p99_ms ?? 0), 0);
  const step = STEP_TEXT[range];
  // One crosshair and readout for the three charts, and one zoom.
  const shared = { times, stepMs: o.step_ms, sync: 'gateway-overview', zoom: zoom.zoom, onZoom: zoom.onZoom };
  return (
    <div class="chart-grid">
      <Card title="Request volume" description={`Requests per ${step}; errors in red`} class="chart-card chart-card-wide">
        <Chart {...shared} series={volume} format={formatCompact} axis={countAxis} minMax={4} height={220} onDraw={drawn('volume')}
          summary={`Request volume over ${RANGE_TEXT[range]}, one bar per ${step}: ${formatInteger(o.requests)} requests in all, ` +
            `at most ${formatInteger(busiest.requests)} in the ${step} from ${formatClock(busiest.time)}.`} />
      </Card>
      <Card title="Error rate" description={`Share of requests per ${step} that failed`} class="chart-card">
        <Chart {...shared} series={errorRate} format={formatPercent} axis={percentAxis} minMax={0.01} height={180} onDraw={drawn('errors')}
          summary={`Error rate over ${RANGE_TEXT[range]}: ${formatPercent(o.error_rate)} overall, at worst ${formatPercent(worstRate)} in one ${step}.`} />
      </Card>
      <Card title="Latency" description={`P95 and P99 per ${step}`} class="chart-card">
        <Chart {...shared} series={latency} format={formatLatency} axis={latencyAxis} minMax={10} height={180} onDraw={drawn('latency')}
          summary={`Latency over ${RANGE_TEXT[range]}: P95 ${formatLatency(o.p95_ms)}, P99 ${formatLatency(o.p99_ms)} overall; the slowest ${step} had a P99 of ${formatLatency(worstP99)}.`} />
      </Card>
    </div>
  );
}

type RouteRow = Overview['top_routes'][number];

const routeColumns = (total: number): Column<RouteRow>[] => [
  {
    key: 'route', label: 'Route', width: '34%', value: (r) => r.route, card: 'top',
    render: (r) => (
      <Link href={`/gateway/requests?route=${encodeURIComponent(r.route)}`} class="route-link" title="Show this route's requests">
        <code>{r.route}</code>
      </Link>
    ),
  },
  {
    key: 'requests', label: 'Requests', align: 'end', value: (r) => r.requests, numbers: countFormat, card: 'main',
    render: (r, text) => (
      <span class="share">
        <span class="share-bar" aria-hidden="true"><span style={{ width: `${total ? Math.max(2, (r.requests / total) * 100) : 0}%` }} /></span>
        {text}
      </span>
    ),
  },
  { key: 'errors', label: 'Errors', align: 'end', value: (r) => r.errors, numbers: countFormat },
  {
    key: 'error_rate', label: 'Error rate', align: 'end', value: (r) => r.error_rate, card: 'main',
    render: (r) => <span class={errorRateClass(r.error_rate)}>{formatPercent(r.error_rate)}</span>,
  },
  { key: 'p95', label: 'P95', align: 'end', value: (r) => r.p95_ms, render: (r) => formatLatency(r.p95_ms) },
  { key: 'p99', label: 'P99', align: 'end', value: (r) => r.p99_ms, render: (r) => formatLatency(r.p99_ms) },
  // No route meters tokens unless a rule says so: none is no data, not zero.
  { key: 'tokens', label: 'Tokens', align: 'end', value: (r) => r.tokens || null, numbers: countFormat },
];

function TopRoutes({ o }: { o: Overview }) {
  const columns = useMemo(() => routeColumns(o.requests), [o.requests]);
  return (
    <Card title="Top routes" description="The busiest policy routes (the last matching rule's path); open one for its requests" padded={false}>
      <Table caption="Top routes by requests" columns={columns} rows={o.top_routes} rowKey={(r) => r.route}
        initialSort={{ key: 'requests', direction: 'descending' }} />
    </Card>
  );
}

/** Nothing was ever captured: how to send the first request with the proxy on; with it off, the demo or the config. */
function NoTrafficYet() {
  const info = shellInfo.value;
  const proxyOn = info?.plugins.includes('proxy') ?? false;
  const proxy = useResource<ProxyStatus>(proxyOn ? '/api/gateway/proxy' : null, 'the gateway\'s address');
  const file = info?.config_file ?? 'the config file';
  if (proxyOn) {
    const url = proxy.data ? reachableUrl(proxy.data.url, window.location.hostname) : 'http://127.0.0.1:8080';
    return (
      <Card>
        <EmptyState icon="gateway" title="Waiting for the first request">
          <p>
            The gateway listens on <code class="inline-code">{url}</code>
            {proxy.data && <> and forwards to <code class="inline-code">{proxy.data.upstream}</code></>}. Point a client at it, or send a request by hand:
          </p>
          <CodeBlock label="A request through the gateway" code={`curl -i -H 'X-Tenant-Id: acme' ${url}/`} />
          <p class="muted">This page is live: the first captured request shows up here within seconds.</p>
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card>
      <EmptyState icon="gateway" title="No traffic yet: the gateway's proxy is off">
        <p>Capture and the policy are running, but nothing feeds them.</p>
        <p>
          <strong>See it with data first.</strong> The demo runs a small shop API, the gateway in front of it and traffic from
          five tenants, and prints the link to a dashboard of its own, full within seconds:
        </p>
        <CodeBlock label="Run the demo" code="npm run demo        # or: npx vigil demo" />
        <p>
          <strong>Or put it in front of your API.</strong> Three lines in <code class="inline-code">{file}</code>:
        </p>
        <CodeBlock label="Gateway config" language="yaml" code={'service:\n  upstream: http://127.0.0.1:3000   # your API\n  listen: 8080'} />
        <p>Restart <code class="inline-code">vigil run</code>, then point clients at the gateway on :8080 instead of the API:</p>
        <CodeBlock label="A request through the gateway" code={`curl -i -H 'X-Tenant-Id: acme' http://${window.location.hostname}:8080/`} />
      </EmptyState>
    </Card>
  );
}

function OverviewSkeleton() {
  return (
    <div class="stack" role="status" aria-label="Loading the overview">
      <div class="stats stats-skeleton">{Array.from({ length: 5 }, (_, i) => <Skeleton key={i} height={78} />)}</div>
      <Skeleton height={280} />
    </div>
  );
}

export default function OverviewPage() {
  // The charts' drawing downloads while the overview's figures are on their way.
  useEffect(() => { preloadCharts().catch(() => {}); }, []);
  const opening = useOpeningRange('range', useChoice('range', RANGES, '24h'), '1h');
  const { range, choose: setRange } = opening;
  const overview = useResource<Overview>(`/api/gateway/overview?range=${range}`, 'the gateway overview');
  useLiveRefresh(overview.reload, range);
  const zoom = useChartZoom(range);
  useEffect(() => opening.look(overview.data && { times: overview.data.volume.map((p) => p.time), counts: overview.data.volume.map((p) => p.requests) }), [overview.data]);
  const o = opening.settled ? overview.data : undefined;
  // Whether anything was ever captured decides between "nothing in this range" and "nothing yet".
  const ever = useResource<{ data: unknown[] }>(o && o.requests === 0 ? '/api/gateway/records?limit=1' : null, 'the latest record');
  const [updated, setUpdated] = useState<number>();
  useEffect(() => { if (o) setUpdated(Date.now()); }, [o]);

  const never = o?.requests === 0 && ever.data?.data.length === 0;
  return (
    <>
      <PageHeader title="Overview" subtitle="Traffic through the gateway, as the telemetry lane captured it."
        actions={<>
          <LiveBadge />
          {updated && <span class="updated" aria-live="off">Updated {formatClock(updated)}</span>}
          <RangePicker value={range} onChange={setRange} />
        </>} />
      {overview.error && <ErrorState error={overview.error} onRetry={overview.reload} />}
      {!o && !overview.error && <OverviewSkeleton />}
      {o && never && <NoTrafficYet />}
      {o && !never && (
        <div class="stack">
          {o.requests === 0 && ever.data && (
            <div class="notice" role="status">
              No requests in {RANGE_TEXT[range]}.{' '}
              {range !== '7d' && <button type="button" class="link-button" onClick={() => setRange('7d')}>Show the last 7 days</button>}
            </div>
          )}
          <OverviewStats o={o} range={range} />
          <ZoomNote zoom={zoom} stepMs={o.step_ms} />
          <OverviewCharts o={o} range={range} zoom={zoom} />
          <TopRoutes o={o} />
        </div>
      )}
    </>
  );
}
