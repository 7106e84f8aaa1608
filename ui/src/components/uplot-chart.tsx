// The chart drawing: uPlot on a canvas, created in an effect and destroyed in its cleanup, resized with its box, and
// redrawn in the theme's colours when the theme changes.
import uPlot from 'uplot';
import { useEffect, useRef, useState } from 'preact/hooks';
import { effectiveTheme } from '../shell/display-settings.js';
import { formatSpan, formatTick } from '../format/time.js';
import type { ChartProps, ChartSeries } from './chart.js';
import { stackForDrawing } from './stack-series.js';
import { bucketMiddles, bucketRange } from './bucket-axis.js';
import { partialBucket, tickInterval, tickTimes } from './chart-scales.js';

/** Width below which a chart's time ticks are twice as far apart (and its value axis narrower). */
const NARROW_PX = 480;

/** A colour token's value as the browser resolved it (tokens use light-dark(), which a canvas cannot read). */
function resolveColor(host: HTMLElement, token: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${token})`;
  probe.style.display = 'none';
  host.appendChild(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

/** `rgb(r, g, b)` with an alpha. */
function withAlpha(color: string, alpha: number): string {
  const m = /^rgba?\(([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(color);
  return m ? `rgba(${m[1]}, ${m[2]}, ${m[3]}, ${alpha})` : color;
}

/** Indexes of the values whose neighbours are both missing. */
function isolatedPoints(u: uPlot, seriesIdx: number): number[] {
  const values = u.data[seriesIdx];
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (values[i] != null && values[i - 1] == null && values[i + 1] == null) out.push(i);
  }
  return out;
}

/**
 * Paints the bucket still filling as partial: veiled in the page's background and hatched, so a bar that is only
 * minutes old reads as "so far", not as a drop.
 */
function drawPartial(u: uPlot, props: ChartProps, background: string, hatch: string): void {
  const i = partialBucket(props.times, props.stepMs, Date.now());
  if (i < 0) return;
  const x0 = Math.max(u.bbox.left, u.valToPos(props.times[i] / 1000, 'x', true));
  const x1 = Math.min(u.bbox.left + u.bbox.width, u.valToPos((props.times[i] + props.stepMs) / 1000, 'x', true));
  if (!(x1 > x0)) return;
  const { ctx } = u;
  const { top, height } = u.bbox;
  ctx.save();
  ctx.beginPath();
  ctx.rect(x0, top, x1 - x0, height);
  ctx.clip();
  ctx.fillStyle = withAlpha(background, 0.5);
  ctx.fillRect(x0, top, x1 - x0, height);
  ctx.strokeStyle = hatch;
  ctx.lineWidth = devicePixelRatio;
  const gap = 5 * devicePixelRatio;
  ctx.beginPath();
  for (let x = x0 - height; x < x1; x += gap) {
    ctx.moveTo(x, top + height);
    ctx.lineTo(x + height, top);
  }
  ctx.stroke();
  ctx.restore();
}

/** `latest` gives the props of the last render: the data changes without the chart being made again. */
function buildOptions(host: HTMLElement, props: ChartProps, width: number, onCursor: (idx: number | null) => void, onDraw: () => void, latest: () => ChartProps): uPlot.Options {
  const text = resolveColor(host, '--text-3');
  const grid = resolveColor(host, '--chart-grid');
  const background = resolveColor(host, '--surface');
  const font = `11px ${getComputedStyle(host).fontFamily}`;
  const axis = (values: uPlot.Axis['values']): uPlot.Axis => ({
    stroke: text, font, values, ticks: { show: false }, grid: { stroke: grid, width: 1 }, border: { show: false },
  });
  const narrow = width < NARROW_PX;
  // One rhythm per range, the same on every chart of the page whatever its width (twice as sparse when narrow).
  const interval = props.tickMs ? (narrow ? props.tickMs * 2 : props.tickMs) : tickInterval(props.stepMs, narrow);
  const zoom = props.zoom;
  return {
    width,
    height: props.height ?? 200,
    legend: { show: false },
    // Right padding so the last time label is not cut at the edge.
    padding: [8, 20, 0, 0],
    cursor: {
      drag: { x: props.onZoom !== undefined, y: false, setScale: false },
      points: { size: 7, width: 2 },
      ...(props.sync ? { sync: { key: props.sync } } : {}),
    },
    select: { show: props.onZoom !== undefined, left: 0, top: 0, width: 0, height: 0 },
    scales: {
      // Whole buckets, each point in the middle of its own (bucket-axis.ts); a zoom shows its span only.
      x: {
        time: true,
        range: (_u, min, max) => (zoom ? [zoom[0] / 1000, zoom[1] / 1000] : bucketRange(min, max, props.stepMs)) as uPlot.Range.MinMax,
      },
      y: { range: (_u, _min, max) => [0, Math.max(max * 1.12, props.minMax ?? 0) || 1] },
    },
    axes: [
      {
        ...axis((_u, splits) => splits.map((s) => formatTick(s * 1000, props.stepMs))), size: 30, gap: 6,
        splits: (_u, _i, min, max) => tickTimes(min * 1000, max * 1000, interval, -new Date(min * 1000).getTimezoneOffset() * 60_000).map((t) => t / 1000),
      },
      // Narrow screens get a narrower value axis: its labels ("400 ms") fit in 48 px at 11 px.
      { ...axis((_u, splits) => (props.axis ? props.axis(splits) : splits.map((v) => props.format(v)))), size: narrow ? 48 : 64, space: 36 },
    ],
    series: [
      {},
      ...drawn(props).map((s): uPlot.Series => {
        const color = resolveColor(host, s.color);
        return {
          label: s.label,
          stroke: color,
          width: s.kind === 'bars' ? 0 : 1.75,
          // Stacked bars are painted over each other: a translucent fill would mix the colours of the stack.
          fill: s.kind === 'bars' ? withAlpha(color, props.stacked ? 1 : 0.8) : s.kind === 'area' ? withAlpha(color, 0.12) : undefined,
          paths: s.kind === 'bars' ? uPlot.paths.bars!({ size: [0.72, 24], gap: 1 }) : undefined,
          // A line needs two neighbours to show: a value between gaps is drawn as a dot instead.
          points: s.kind === 'bars' ? { show: false } : { show: true, size: 5, fill: color, filter: isolatedPoints },
          spanGaps: false,
        };
      }),
    ],
    hooks: {
      setCursor: [(u) => onCursor(u.cursor.idx ?? null)],
      draw: [(u) => drawPartial(u, latest(), background, withAlpha(text, 0.35)), onDraw],
      setSelect: [(u) => {
        const { left, width: w } = u.select;
        const now = latest();
        if (w < 8 || !now.onZoom) return;
        const from = u.posToVal(left, 'x') * 1000;
        const to = u.posToVal(left + w, 'x') * 1000;
        u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
        now.onZoom([from, to]);
      }],
    },
  };
}

/** The series in uPlot's drawing order and values (running totals, for a stack). The legend keeps `props.series`. */
const drawn = (props: ChartProps): readonly ChartSeries[] => (props.stacked ? stackForDrawing(props.series) : props.series);
const dataOf = (props: ChartProps): uPlot.AlignedData => [bucketMiddles(props.times, props.stepMs), ...drawn(props).map((s) => s.values as (number | null)[])];

export function UPlotChart(props: ChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const [hover, setHover] = useState<number | null>(null);
  const onDraw = useRef(props.onDraw);
  onDraw.current = props.onDraw;
  const latest = useRef(props);
  latest.current = props;
  const theme = effectiveTheme.value;
  // The shape of the chart: a change redraws it from scratch; new values alone only replace its data.
  const shape = `${theme}|${props.stepMs}|${props.tickMs ?? ''}|${props.height}|${props.stacked ? 'stacked' : ''}|${props.zoom?.join('-') ?? ''}|${props.sync ?? ''}|` +
    props.series.map((s) => `${s.label}:${s.kind}:${s.color}`).join(',');

  useEffect(() => {
    const el = host.current!;
    const u = new uPlot(buildOptions(el, props, el.clientWidth || 600, setHover, () => onDraw.current?.(), () => latest.current), dataOf(props), el);
    plot.current = u;
    const resize = new ResizeObserver(() => {
      if (el.clientWidth > 0) u.setSize({ width: el.clientWidth, height: props.height ?? 200 });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = undefined;
    };
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(dataOf(props));
  }, [props.times, props.series]);

  return (
    <div class="chart">
      <div class="chart-legend" aria-hidden="true">
        {props.series.map((s) => (
          <span class="chart-legend-item" key={s.label}>
            <span class={`chart-swatch chart-swatch-${s.kind}`} style={{ background: `var(${s.color})` }} />
            {s.label}
            {hover !== null && <strong class="chart-legend-value">{s.values[hover] === null ? '—' : props.format(s.values[hover]!)}</strong>}
          </span>
        ))}
        {hover !== null && props.times[hover] !== undefined && (
          <span class="chart-legend-time">
            {formatSpan(props.times[hover], props.stepMs)}
            {hover === partialBucket(props.times, props.stepMs, Date.now()) && ' · so far, still filling'}
          </span>
        )}
      </div>
      <div class="chart-canvas" ref={host} role="img" aria-label={props.summary} />
    </div>
  );
}
