// A project's figures over the last hour, day, week or month, as GET /api/v1/stats gives them: calls and errors,
// error rate, latency percentiles, tokens and cost, with their time series. Live while open.
import { useEffect, useMemo } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { Chart, preloadCharts, type ChartSeries } from '../../components/chart.js';
import { countAxis, latencyAxis, moneyAxis, percentAxis } from '../../components/chart-scales.js';
import { useChartZoom, ZoomNote, type ChartZoom } from '../../components/chart-zoom.js';
import { useOpeningRange, type OpeningRange } from '../../components/opening-range.js';
import { ErrorState } from '../../components/error-state.js';
import { Segmented } from '../../components/segmented.js';
import { Skeleton } from '../../components/skeleton.js';
import { Stat, Stats } from '../../components/stat.js';
import { useLive, useWhileVisible } from '../../data/live.js';
import { throttle } from '../../data/throttle.js';
import { useResource } from '../../data/use-resource.js';
import { errorRateTone } from '../../format/error-rate.js';
import { formatCompact, formatInteger, formatLatency, formatPercent } from '../../format/numbers.js';
import { formatClock } from '../../format/time.js';
import { LiveBadge } from '../../shell/live-badge.js';
import { useChoice } from '../../shell/router.js';
import { formatScore, formatUsd } from './figures.js';
import { projectApi, STATS_RANGES, type Project, type Stats as StatsAnswer, type StatsRange } from './llm-api.js';
import { NoTracesYet } from './onboarding.js';
import { ProjectPage } from './project-frame.js';

const LIVE_REFRESH_MS = 5000;
const RANGE_TEXT: Record<StatsRange, string> = { '1h': 'the last hour', '24h': 'the last 24 hours', '7d': 'the last 7 days', '30d': 'the last 30 days' };
const STEP_TEXT: Record<StatsRange, string> = { '1h': 'minute', '24h': '15 minutes', '7d': 'hour', '30d': '6 hours' };
const rangeOptions = STATS_RANGES.map((r) => ({ value: r, label: r, description: `Last ${r === '1h' ? 'hour' : r === '24h' ? '24 hours' : r === '7d' ? '7 days' : '30 days'}` }));

/** Red from 5 % of calls failing, amber from 1 %. */

function Figures({ s, range }: { s: StatsAnswer; range: StatsRange }) {
  return (
    <Stats label={`LLM figures for ${RANGE_TEXT[range]}`}>
      <Stat label="Calls" value={formatCompact(s.requests)} detail={`${formatInteger(s.requests)} in ${RANGE_TEXT[range]}`} />
      <Stat label="Error rate" value={formatPercent(s.error_rate)} tone={errorRateTone(s.error_rate)} detail={s.errors === 1 ? '1 failed call' : `${formatInteger(s.errors)} failed calls`} />
      <Stat label="P95 latency" value={formatLatency(s.latency_ms.p95)} detail={`P50 ${formatLatency(s.latency_ms.p50)} · P99 ${formatLatency(s.latency_ms.p99)}`} />
      <Stat label="Tokens" value={formatCompact(s.tokens.total)} detail={`${formatCompact(s.tokens.input)} in · ${formatCompact(s.tokens.output)} out`} />
      <Stat label="Cost (USD)" value={formatUsd(s.cost_usd)} tone={s.cost_usd > 0 ? 'accent' : 'neutral'}
        detail={s.requests ? `${formatUsd(s.cost_usd / s.requests)} a call on average` : 'no calls'} />
      <Stat label="Eval score" value={s.eval_score_avg === null ? '—' : formatScore(s.eval_score_avg)}
        detail={s.eval_score_avg === null ? 'no evals yet: scores come with evaluations' : 'average of the scored calls'} />
    </Stats>
  );
}

const usdAxis = moneyAxis('USD');

function StatsCharts({ s, range, zoom }: { s: StatsAnswer; range: StatsRange; zoom: ChartZoom }) {
  const times = useMemo(() => s.series.map((p) => Date.parse(p.time)), [s]);
  const step = STEP_TEXT[range];
  const calls = useMemo<ChartSeries[]>(() => [
    { label: 'Calls', color: '--chart-1', kind: 'bars', values: s.series.map((p) => p.requests) },
    { label: 'Errors', color: '--chart-error', kind: 'bars', values: s.series.map((p) => p.errors) },
  ], [s]);
  const rate = useMemo<ChartSeries[]>(() => [
    { label: 'Error rate', color: '--chart-error', kind: 'area', values: s.series.map((p) => (p.requests ? p.error_rate : null)) },
  ], [s]);
  const latency = useMemo<ChartSeries[]>(() => [
    { label: 'P95', color: '--chart-2', kind: 'line', values: s.series.map((p) => p.p95_latency_ms) },
    { label: 'P99', color: '--chart-3', kind: 'line', values: s.series.map((p) => p.p99_latency_ms) },
  ], [s]);
  const tokens = useMemo<ChartSeries[]>(() => [
    { label: 'Input', color: '--chart-5', kind: 'bars', values: s.series.map((p) => (p.requests ? p.input_tokens : null)) },
    { label: 'Output', color: '--chart-1', kind: 'bars', values: s.series.map((p) => (p.requests ? p.output_tokens : null)) },
  ], [s]);
  const cost = useMemo<ChartSeries[]>(() => [{ label: 'Cost', color: '--chart-3', kind: 'bars', values: s.series.map((p) => p.cost_usd) }], [s]);
  const busiest = s.series.reduce((best, p) => (p.requests > best.requests ? p : best), s.series[0] ?? { requests: 0, time: s.from });
  const worstRate = s.series.reduce((w, p) => Math.max(w, p.requests ? p.error_rate : 0), 0);
  const slowest = s.series.reduce((w, p) => Math.max(w, p.p99_latency_ms ?? 0), 0);
  const dearest = s.series.reduce((w, p) => Math.max(w, p.cost_usd), 0);
  // One crosshair and readout for the five charts, and one zoom.
  const shared = { times, stepMs: s.step_ms, sync: 'llm-stats', zoom: zoom.zoom, onZoom: zoom.onZoom };
  return (
    <div class="chart-grid">
      <Card title="Calls" description={`Calls per ${step}; failed ones in red`} class="chart-card chart-card-wide">
        <Chart {...shared} series={calls} format={formatCompact} axis={countAxis} minMax={4} height={220}
          summary={`Calls over ${RANGE_TEXT[range]}, one bar per ${step}: ${formatInteger(s.requests)} in all, ${formatInteger(s.errors)} failed; ` +
            `at most ${formatInteger(busiest.requests)} in the ${step} from ${formatClock(Date.parse(busiest.time))}.`} />
      </Card>
      <Card title="Error rate" description={`Share of calls per ${step} that failed`} class="chart-card">
        <Chart {...shared} series={rate} format={formatPercent} axis={percentAxis} minMax={0.01} height={180}
          summary={`Error rate over ${RANGE_TEXT[range]}: ${formatPercent(s.error_rate)} overall, at worst ${formatPercent(worstRate)} in one ${step}.`} />
      </Card>
      <Card title="Latency" description={`P95 and P99 per ${step}`} class="chart-card">
        <Chart {...shared} series={latency} format={formatLatency} axis={latencyAxis} minMax={10} height={180}
          summary={`Latency over ${RANGE_TEXT[range]}: P95 ${formatLatency(s.latency_ms.p95)}, P99 ${formatLatency(s.latency_ms.p99)} overall; the slowest ${step} had a P99 of ${formatLatency(slowest)}.`} />
      </Card>
      <Card title="Tokens" description={`Input and output tokens per ${step}, stacked`} class="chart-card">
        <Chart {...shared} series={tokens} stacked format={formatCompact} axis={countAxis} minMax={10} height={180}
          summary={`Tokens per ${step} over ${RANGE_TEXT[range]}: ${formatInteger(s.tokens.total)} in all (${formatInteger(s.tokens.input)} in, ${formatInteger(s.tokens.output)} out).`} />
      </Card>
      <Card title="Cost" description={`USD per ${step}, as sent or priced by model`} class="chart-card">
        <Chart {...shared} series={cost} format={formatUsd} axis={usdAxis} minMax={0.001} height={180}
          summary={`Cost per ${step} over ${RANGE_TEXT[range]}: ${formatUsd(s.cost_usd)} in all, at most ${formatUsd(dearest)} in one ${step}.`} />
      </Card>
    </div>
  );
}

function StatsSkeleton() {
  return (
    <div class="stack" role="status" aria-label="Loading the figures">
      <div class="stats stats-skeleton">{Array.from({ length: 6 }, (_, i) => <Skeleton key={i} height={78} />)}</div>
      <Skeleton height={280} />
    </div>
  );
}

function ProjectStats({ project, opening }: { project: Project; opening: OpeningRange<StatsRange> }) {
  const { range, choose: onRange } = opening;
  const stats = useResource<StatsAnswer>(projectApi(project.name, `/stats?range=${range}`), 'the figures');
  const zoom = useChartZoom(range);
  useEffect(() => opening.look(stats.data && { times: stats.data.series.map((p) => Date.parse(p.time)), counts: stats.data.series.map((p) => p.requests) }), [stats.data]);
  const s = opening.settled ? stats.data : undefined;
  const refresh = useMemo(() => throttle(stats.reload, LIVE_REFRESH_MS), [stats.reload]);
  useEffect(() => () => refresh.cancel(), [refresh]);
  useLive('llm.trace', (data) => { if ((data as { project?: string }).project === project.name) refresh(); });
  useWhileVisible(stats.reload, range === '1h' ? 60_000 : 5 * 60_000);
  // Whether the project has any trace at all decides between "nothing in this range" and "send your first".
  const ever = useResource<{ data: unknown[] }>(s && s.requests === 0 ? projectApi(project.name, '/traces?limit=1') : null, 'the latest trace');
  if (stats.error) return <ErrorState error={stats.error} onRetry={stats.reload} />;
  if (!s || (s.requests === 0 && !ever.data)) return <StatsSkeleton />;
  if (s.requests === 0 && ever.data?.data.length === 0) return <Card><NoTracesYet project={project.name} /></Card>;
  return (
    <div class="stack">
      {s.requests === 0 && (
        <div class="notice" role="status">
          No calls in {RANGE_TEXT[range]}.{' '}
          {range !== '30d' && <button type="button" class="link-button" onClick={() => onRange('30d')}>Show the last 30 days</button>}
        </div>
      )}
      <Figures s={s} range={range} />
      <ZoomNote zoom={zoom} stepMs={s.step_ms} />
      <StatsCharts s={s} range={range} zoom={zoom} />
    </div>
  );
}

export default function StatsPage() {
  useEffect(() => { preloadCharts().catch(() => {}); }, []);
  const opening = useOpeningRange('range', useChoice('range', STATS_RANGES, '24h'), '1h');
  const { range, choose: setRange } = opening;
  return (
    <ProjectPage title="LLM stats" subtitle="Calls, errors, latency, tokens and cost of a project, as GET /api/v1/stats gives them."
      searchFor={(p) => `?project=${encodeURIComponent(p)}${range === '24h' ? '' : `&range=${range}`}`}
      actions={() => <>
        <LiveBadge />
        <Segmented label="Range" options={rangeOptions} value={range} onChange={setRange} />
      </>}>
      {(project) => <ProjectStats key={project.name} project={project} opening={opening} />}
    </ProjectPage>
  );
}
