// The history's points as chart series: a day of minute samples has one value per metric and point; an hourly rollup
// has an average and a peak (`<metric>_avg`, `<metric>_max`). The charts draw the average as the line and the peak
// as a thin line above it, so a one-minute spike that an hour's average hides still shows.

/** A point of GET /api/trend: its time and its figures by column name. */
export type TrendRow = { readonly [column: string]: number | null | undefined };

/** The average and, for hourly rows, the peak of `metric` at each point; null where the point has no value. */
export function metricSeries(rows: readonly TrendRow[], metric: string, hourly: boolean): { avg: (number | null)[]; max: (number | null)[] | null } {
  const value = (row: TrendRow, column: string): number | null => {
    const v = row[column];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
  if (!hourly) return { avg: rows.map((r) => value(r, metric)), max: null };
  return { avg: rows.map((r) => value(r, `${metric}_avg`)), max: rows.map((r) => value(r, `${metric}_max`)) };
}

/** Whether any point has a value: a metric this machine cannot measure (no battery, no sensor) gets no chart. */
export const hasValues = (values: readonly (number | null)[] | null): boolean => values?.some((v) => v !== null) ?? false;

/** The largest value, or null. */
export function peak(values: readonly (number | null)[] | null): number | null {
  let best: number | null = null;
  for (const v of values ?? []) if (v !== null && (best === null || v > best)) best = v;
  return best;
}

/** The mean of the values present, or null. */
export function mean(values: readonly (number | null)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) if (v !== null) { sum += v; n++; }
  return n ? sum / n : null;
}

const trim = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/** Labels for an axis of shares given as 0..100: `0 %` … `100 %`. */
export function shareAxis(splits: readonly number[]): string[] {
  const step = splits.length > 1 ? Math.abs(splits[1] - splits[0]) : 1;
  const digits = step >= 1 || step === 0 ? 0 : 1;
  return splits.map((v) => `${trim(v.toFixed(digits))} %`);
}

/** Labels for an axis of °C. */
export const celsiusAxis = (splits: readonly number[]): string[] => splits.map((v) => `${Math.round(v)} °C`);

const BINARY = [['GiB/s', 2 ** 30], ['MiB/s', 2 ** 20], ['KiB/s', 2 ** 10]] as const;

/** Labels for an axis of bytes a second, all in the unit of the largest label. */
export function byteRateAxis(splits: readonly number[]): string[] {
  const max = Math.max(0, ...splits);
  const [unit, size] = BINARY.find(([, s]) => max >= s) ?? ['B/s', 1];
  const step = splits.length > 1 ? Math.abs(splits[1] - splits[0]) / size : 1;
  const digits = step >= 1 || step === 0 ? 0 : step >= 0.1 ? 1 : 2;
  return splits.map((v) => (v === 0 ? '0' : `${trim((v / size).toFixed(digits))} ${unit}`));
}

/** Milliseconds between a chart's time ticks for each range: every 3 hours of a day, every day of a week, 5 and 15 days beyond. */
export const RANGE_TICK_MS = { '24h': 3 * 3_600_000, '7d': 86_400_000, '30d': 5 * 86_400_000, '90d': 15 * 86_400_000 } as const;
