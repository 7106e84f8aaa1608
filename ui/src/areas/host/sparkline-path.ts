// The path of a small live chart (an SVG sparkline): cheap enough to redraw every 2 s for every card of the overview,
// where a full chart (uPlot) would cost a canvas each.

/**
 * An SVG path through `values` spread evenly over `width`, scaled so `max` is the top of `height` (the values' own
 * largest when `max` is absent or smaller). A null is a gap: the line lifts and starts again after it. `slots` is how
 * many points the width holds (the line fills from the right while it has fewer). Empty string when nothing to draw.
 */
export function sparklinePath(values: readonly (number | null)[], width: number, height: number, max?: number, slots = values.length): string {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (present.length === 0 || slots < 1) return '';
  const top = Math.max(max ?? 0, ...present) || 1;
  const step = slots > 1 ? width / (slots - 1) : 0;
  const offset = slots - values.length;
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) {
      pen = false;
      return;
    }
    const x = round((offset + i) * step);
    const y = round(height - (Math.max(0, v) / top) * height);
    d += `${pen ? 'L' : 'M'}${x} ${y}`;
    pen = true;
  });
  return d;
}

/** The same line closed down to the baseline, for a soft fill under it. Only the first unbroken run is filled when there are gaps. */
export function sparklineArea(path: string, height: number): string {
  if (!path) return '';
  const runs = path.split('M').filter(Boolean);
  const run = runs[runs.length - 1];
  const points = run.split('L').map((p) => p.split(' ').map(Number));
  const [x0] = points[0];
  const [x1] = points[points.length - 1];
  return `M${run}L${x1} ${height}L${x0} ${height}Z`;
}

const round = (n: number): number => Math.round(n * 10) / 10;

/** Appends `value` to a window of at most `size` values, dropping the oldest (a new array; the old one is untouched). */
export function pushWindow<T>(window: readonly T[], value: T, size: number): T[] {
  const next = window.length >= size ? window.slice(window.length - size + 1) : window.slice();
  next.push(value);
  return next;
}
