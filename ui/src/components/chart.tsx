// A time-series chart. The drawing (uPlot, the heaviest part of a page) loads with import() the first time a chart
// is shown, so the shell's first load never carries it.
import { useEffect, useState } from 'preact/hooks';
import { Skeleton } from './skeleton.js';

export interface ChartSeries {
  label: string;
  /** A colour token of the design system, e.g. `--chart-1`. */
  color: string;
  /** `bars` for counts per step, `line` for rates and latencies; `area` is a line with a soft fill. */
  kind: 'bars' | 'line' | 'area';
  /** One value per time; null where there is no value (a gap). */
  values: readonly (number | null)[];
}

export interface ChartProps {
  /** What the chart shows, for assistive technology (the canvas itself is an image). */
  summary: string;
  /** Start of each point, epoch ms. */
  times: readonly number[];
  /** Milliseconds each point covers. */
  stepMs: number;
  /** Milliseconds between time ticks, when the step's default rhythm (chart-scales tickInterval) fits not the range. */
  tickMs?: number;
  series: readonly ChartSeries[];
  /** Formats a value of the hover readout (and of the y axis, without `axis`). */
  format(value: number): string;
  /** The y axis's labels, all in one unit chosen from the largest (chart-scales.ts: latencyAxis, countAxis…). */
  axis?: (splits: readonly number[]) => string[];
  /** Charts of a page with the same key share their crosshair and readout: hovering one shows that time on all. */
  sync?: string;
  /** The span shown (epoch ms), within the data's; null or absent: all of it. */
  zoom?: readonly [number, number] | null;
  /** Called with the span dragged across the chart (epoch ms): the page zooms every chart to it. */
  onZoom?: (span: [number, number]) => void;
  /** The y axis reaches at least this high (e.g. 1 for a count, so a quiet chart does not magnify noise). */
  minMax?: number;
  height?: number;
  /** Bars on top of each other, the first series at the bottom; the y axis reaches their sum. */
  stacked?: boolean;
  /** Called each time the chart has drawn itself on its canvas (after data or size changes too). */
  onDraw?: () => void;
}

type ChartModule = typeof import('./uplot-chart.js');
let loaded: ChartModule | undefined;
let loading: Promise<ChartModule> | undefined;

/**
 * Starts loading the chart drawing, once. A page that will draw charts calls it before its data arrives, so the
 * chunk downloads while the API answers instead of after. A failed load is tried again by the next call.
 */
export function preloadCharts(): Promise<ChartModule> {
  loading ??= import('./uplot-chart.js').then((m) => (loaded = m), (err) => { loading = undefined; throw err; });
  return loading;
}

export function Chart(props: ChartProps) {
  const [mod, setMod] = useState(loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (mod) return;
    let live = true;
    preloadCharts().then((m) => { if (live) setMod(m); }, () => { if (live) setFailed(true); });
    return () => { live = false; };
  }, [mod]);
  const height = props.height ?? 200;
  if (failed) {
    return <div class="chart-failed" style={{ height: `${height}px` }} role="alert">The chart could not load. Reload the page to try again.</div>;
  }
  if (!mod) return <div class="chart-frame" role="img" aria-label={props.summary}><Skeleton height={height} /></div>;
  return <mod.UPlotChart {...props} height={height} />;
}
