// Stacked bars, the way uPlot can draw them: each series becomes the running total up to it, and the series are
// drawn tallest first, so each shorter bar is painted over the taller one below it in the stack.
import type { ChartSeries } from './chart.js';

/**
 * The series as drawn for a stack: values summed bottom-up (the first series is the bottom), a gap counted as 0,
 * and the order reversed (the full stack first). A time where every series has a gap stays a gap.
 */
export function stackForDrawing(series: readonly ChartSeries[]): ChartSeries[] {
  const length = Math.max(0, ...series.map((s) => s.values.length));
  const running: number[] = new Array(length).fill(0);
  const anyValue = Array.from({ length }, (_, i) => series.some((s) => s.values[i] !== null && s.values[i] !== undefined));
  const stacked = series.map((s) => ({
    ...s,
    values: running.map((sum, i) => {
      running[i] = sum + (s.values[i] ?? 0);
      return anyValue[i] ? running[i] : null;
    }),
  }));
  return stacked.reverse();
}
