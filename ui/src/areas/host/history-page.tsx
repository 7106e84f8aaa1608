// The machine's history: a day of minute samples, or 7, 30 or 90 days of hourly rollups (average and peak), from
// GET /api/trend?range=. The range is in the address; the CSV export is a plain link the session cookie authenticates.
import { useEffect, useMemo } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { Chart, preloadCharts, type ChartSeries } from '../../components/chart.js';
import { useChartZoom, ZoomNote, type ChartZoom } from '../../components/chart-zoom.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import { PageHeader } from '../../components/page-header.js';
import { Segmented } from '../../components/segmented.js';
import { Skeleton } from '../../components/skeleton.js';
import { Stat, Stats } from '../../components/stat.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { useChoice } from '../../shell/router.js';
import type { TrendAnswer } from './host-api.js';
import { formatByteRate, formatCelsius, formatShare } from './host-format.js';
import { HOST_RANGE_OPTIONS, HOST_RANGE_TEXT, HOST_RANGES, hostRangeStep, trendCsvPath, type HostRange } from './host-ranges.js';
import { byteRateAxis, celsiusAxis, hasValues, mean, metricSeries, peak, RANGE_TICK_MS, shareAxis, type TrendRow } from './trend-series.js';

/** A new minute sample lands once a minute; an hour's rollup once an hour. */
const REFRESH_MS: Record<HostRange, number> = { '24h': 60_000, '7d': 10 * 60_000, '30d': 30 * 60_000, '90d': 30 * 60_000 };

interface ChartSpec {
  key: string;
  title: string;
  description: string;
  metrics: { metric: string; label: string; color: string }[];
  format(v: number): string;
  axis(splits: readonly number[]): string[];
  minMax: number;
  wide?: boolean;
}

const SPECS: ChartSpec[] = [
  { key: 'cpu', title: 'CPU', description: 'Busy share of all cores', metrics: [{ metric: 'cpu', label: 'CPU', color: '--chart-1' }], format: formatShare, axis: shareAxis, minMax: 10 },
  { key: 'mem', title: 'Memory and swap', description: 'Share in use', metrics: [{ metric: 'mem', label: 'Memory', color: '--chart-2' }, { metric: 'swap', label: 'Swap', color: '--chart-3' }], format: formatShare, axis: shareAxis, minMax: 10 },
  { key: 'net', title: 'Network', description: 'All interfaces but loopback, a second', metrics: [{ metric: 'net_rx', label: 'In', color: '--chart-2' }, { metric: 'net_tx', label: 'Out', color: '--chart-4' }], format: formatByteRate, axis: byteRateAxis, minMax: 1024 },
  { key: 'io', title: 'Disk I/O', description: 'All disks, a second', metrics: [{ metric: 'io_read', label: 'Read', color: '--chart-5' }, { metric: 'io_write', label: 'Written', color: '--chart-3' }], format: formatByteRate, axis: byteRateAxis, minMax: 1024 },
  { key: 'temp', title: 'Hottest sensor', description: 'Degrees Celsius', metrics: [{ metric: 'temp', label: 'Hottest', color: '--chart-error' }], format: (v) => formatCelsius(v), axis: celsiusAxis, minMax: 50 },
  { key: 'disk', title: 'Fullest partition', description: 'Share in use', metrics: [{ metric: 'disk', label: 'Fullest', color: '--chart-4' }], format: formatShare, axis: shareAxis, minMax: 10 },
  { key: 'battery', title: 'Battery', description: 'Charge', metrics: [{ metric: 'battery', label: 'Charge', color: '--chart-5' }], format: formatShare, axis: shareAxis, minMax: 100 },
  { key: 'load', title: 'Load average', description: '1 minute: tasks running or waiting', metrics: [{ metric: 'load1', label: 'Load', color: '--chart-1' }], format: (v) => v.toFixed(2), axis: (s) => s.map((v) => v.toFixed(v < 10 && s.some((x) => x % 1 !== 0) ? 1 : 0)), minMax: 1 },
];

function seriesFor(spec: ChartSpec, rows: readonly TrendRow[], hourly: boolean): ChartSeries[] {
  return spec.metrics.flatMap(({ metric, label, color }) => {
    const { avg, max } = metricSeries(rows, metric, hourly);
    const single = spec.metrics.length === 1;
    const out: ChartSeries[] = [{ label: hourly && single ? `${label} (average)` : label, color, kind: single ? 'area' : 'line', values: avg }];
    // The hour's peak, as a quiet line above the average: on a chart of one metric only, where it cannot be taken
    // for another series.
    if (single && max && hasValues(max)) out.push({ label: `${label} (peak)`, color: '--chart-other', kind: 'line', values: max });
    return out;
  }).filter((s) => hasValues(s.values));
}

/** The rows of an answer, minute or hourly, with each one's time. */
function rowsOf(trend: TrendAnswer): { rows: readonly TrendRow[]; times: number[]; hourly: boolean } {
  const hourly = trend.resolution === 'hour';
  return hourly ? { rows: trend.hours, times: trend.hours.map((h) => h.hour), hourly } : { rows: trend.samples, times: trend.samples.map((s) => s.t), hourly };
}

function HistoryCharts({ trend, range, zoom }: { trend: TrendAnswer; range: HostRange; zoom: ChartZoom }) {
  const { rows, times, hourly } = useMemo(() => rowsOf(trend), [trend]);
  const charts = useMemo(() => SPECS.map((spec) => ({ spec, series: seriesFor(spec, rows, hourly) })).filter((c) => c.series.length > 0), [rows, hourly]);
  const shared = { times, stepMs: hourly ? 3_600_000 : 60_000, tickMs: RANGE_TICK_MS[range], sync: 'host-history', zoom: zoom.zoom, onZoom: zoom.onZoom };
  return (
    <div class="chart-grid host-chart-grid">
      {charts.map(({ spec, series }) => {
        const first = series[0];
        const top = peak(series.find((s) => s.label.endsWith('(peak)'))?.values ?? first.values);
        const avg = mean(first.values);
        return (
          <Card key={spec.key} title={spec.title} description={`${spec.description}${hourly ? (spec.metrics.length === 1 ? '; hourly average and peak' : '; hourly averages') : '; a point a minute'}`} class="chart-card">
            <Chart {...shared} series={series} format={spec.format} axis={spec.axis} minMax={spec.minMax} height={180}
              summary={`${spec.title} over ${HOST_RANGE_TEXT[range]}: ${avg === null ? 'no value' : `on average ${spec.format(avg)}`}, at most ${top === null ? '—' : spec.format(top)}.`} />
          </Card>
        );
      })}
    </div>
  );
}

/** Under an hour of minute samples, the day's chart is still filling in. */
const FILLING_SAMPLES = 60;

function HistoryStats({ trend, range }: { trend: TrendAnswer; range: HostRange }) {
  const { rows, hourly } = rowsOf(trend);
  const cpu = metricSeries(rows, 'cpu', hourly);
  const mem = metricSeries(rows, 'mem', hourly);
  const temp = metricSeries(rows, 'temp', hourly);
  const disk = metricSeries(rows, 'disk', hourly);
  return (
    <Stats label={`This machine over ${HOST_RANGE_TEXT[range]}`}>
      <Stat label="CPU average" value={formatShare(mean(cpu.avg))} detail={`peak ${formatShare(peak(cpu.max ?? cpu.avg))}`} />
      <Stat label="Memory average" value={formatShare(mean(mem.avg))} detail={`peak ${formatShare(peak(mem.max ?? mem.avg))}`} />
      <Stat label="Hottest" value={formatCelsius(peak(temp.max ?? temp.avg))} detail={hasValues(temp.avg) ? `average ${formatCelsius(mean(temp.avg))}` : 'no sensor'} />
      <Stat label="Fullest disk" value={formatShare(peak(disk.max ?? disk.avg))} detail="at its fullest" />
      <Stat label={hourly ? 'Hours' : 'Samples'} value={formatInteger(rows.length)} detail={hourly ? 'rolled up, one an hour' : 'one a minute, kept a day'} />
    </Stats>
  );
}

export default function HostHistoryPage() {
  useEffect(() => { preloadCharts().catch(() => {}); }, []);
  const [range, setRange] = useChoice('range', HOST_RANGES, '24h');
  const trend = useResource<TrendAnswer>(`/api/trend?range=${range}`, 'the history');
  useWhileVisible(trend.reload, REFRESH_MS[range]);
  const zoom = useChartZoom(range);
  const t = trend.data;
  const count = t ? rowsOf(t).rows.length : 0;
  return (
    <>
      <PageHeader title="History" subtitle="Minute samples for a day, hourly averages and peaks for 90 days, kept in the store."
        actions={<>
          {/* A plain same-origin link: the session cookie authenticates the download; no token is ever in a URL. */}
          <a class="button button-secondary" href={trendCsvPath(range)} download>
            <Icon name="download" /> Export CSV
          </a>
          <Segmented label="Time range" options={HOST_RANGE_OPTIONS} value={range} onChange={setRange} />
        </>} />
      {trend.error && <ErrorState error={trend.error} onRetry={trend.reload} />}
      {!t && !trend.error && (
        <div class="stack" role="status" aria-label="Loading the history">
          <div class="stats stats-skeleton">{Array.from({ length: 5 }, (_, i) => <Skeleton key={i} height={78} />)}</div>
          <div class="chart-grid">{Array.from({ length: 4 }, (_, i) => <Skeleton key={i} height={240} />)}</div>
        </div>
      )}
      {t && count === 0 && (
        <EmptyState icon="usage" title={range === '24h' ? 'The first sample comes within a minute' : 'No finished hour yet'}>
          <p>
            {range === '24h'
              ? 'Vigil samples this machine once a minute while it runs. Keep this page open: the charts fill in as the samples arrive.'
              : 'Each finished hour is rolled into one row of average and peak. The first appears at the top of the next hour; the last 24 hours already show minute by minute.'}
          </p>
          {range !== '24h' && <button type="button" class="button button-secondary" onClick={() => setRange('24h')}>Show the last 24 hours</button>}
        </EmptyState>
      )}
      {t && count > 0 && (
        <div class="stack">
          <HistoryStats trend={t} range={range} />
          {/* A fresh start draws a day's axes around a few dots: say that it fills in, not that it is all there is. */}
          {range === '24h' && count < FILLING_SAMPLES && (
            <p class="notice" role="status">
              The history fills a minute at a time: {formatInteger(count)} {count === 1 ? 'sample' : 'samples'} so far, since Vigil started sampling this machine.
            </p>
          )}
          <ZoomNote zoom={zoom} stepMs={hostRangeStep(range)} />
          <HistoryCharts trend={t} range={range} zoom={zoom} />
        </div>
      )}
    </>
  );
}
