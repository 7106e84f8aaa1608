// The choices a chart makes about its axes and its last bucket, as pure functions: one unit per value axis (chosen
// from the axis's largest label, so "0 ms" never stands beside "2 s"), one rhythm of time ticks per range (the same
// on every chart of a page, whatever its width), which bucket is still filling, and which range a page opens on.

/** Decimals that tell apart labels `step` apart, in a unit of `size`: 0.25 s steps need two, 2.5 ms steps one, 5 s none. */
function decimalsFor(step: number, size: number): number {
  const inUnit = Math.abs(step / size);
  if (!(inUnit > 0)) return 0;
  const fraction = inUnit.toFixed(3).split('.')[1].replace(/0+$/, '');
  return fraction.length;
}

const trim = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/** Labels for a latency axis, in ms up to a largest label under a second, else all in seconds. */
export function latencyAxis(splits: readonly number[]): string[] {
  const max = Math.max(0, ...splits);
  const step = splits.length > 1 ? splits[1] - splits[0] : max;
  if (max < 1000) return splits.map((v) => `${trim(v.toFixed(decimalsFor(step, 1)))} ms`);
  return splits.map((v) => `${trim((v / 1000).toFixed(decimalsFor(step, 1000)))} s`);
}

/** Labels for a count axis: plain below a thousand, else all in the largest label's unit (k, M, B). */
export function countAxis(splits: readonly number[]): string[] {
  const max = Math.max(0, ...splits.map(Math.abs));
  const step = splits.length > 1 ? splits[1] - splits[0] : max;
  const [unit, size] = max >= 1e9 ? ['B', 1e9] : max >= 1e6 ? ['M', 1e6] : max >= 1e3 ? ['k', 1e3] : ['', 1];
  return splits.map((v) => (v === 0 ? '0' : `${trim((v / size).toFixed(decimalsFor(step, size)))}${unit}`));
}

/** Labels for a share axis (0..1) as percentages, with as many decimals as the step needs. */
export function percentAxis(splits: readonly number[]): string[] {
  const step = splits.length > 1 ? splits[1] - splits[0] : 1;
  return splits.map((v) => `${trim((v * 100).toFixed(decimalsFor(step * 100, 1)))} %`);
}

/** Labels for a money axis: the currency's symbol, with as many decimals as the step needs (at least the cents when below 1). */
export function moneyAxis(currency: string): (splits: readonly number[]) => string[] {
  const symbol = new Intl.NumberFormat('en-US', { style: 'currency', currency }).formatToParts(0).find((p) => p.type === 'currency')?.value ?? currency;
  return (splits) => {
    const step = splits.length > 1 ? splits[1] - splits[0] : 1;
    const digits = Math.max(decimalsFor(step, 1), Math.max(...splits) < 1 ? 2 : 0);
    return splits.map((v) => (v === 0 ? `${symbol}0` : `${symbol}${v.toFixed(digits)}`));
  };
}

/**
 * Milliseconds between time ticks for buckets of `stepMs`: ten minutes for a minute's buckets (1 h), three hours for a
 * quarter's (24 h), a day for an hour's (7 d), five days beyond; twice that on a narrow chart.
 */
export function tickInterval(stepMs: number, narrow: boolean): number {
  const base = stepMs <= 60_000 ? 10 * 60_000 : stepMs <= 900_000 ? 3 * 3_600_000 : stepMs <= 3_600_000 ? 86_400_000 : 5 * 86_400_000;
  return narrow ? base * 2 : base;
}

/**
 * Tick times from `from` to `to` (epoch ms), every `interval`, on the local clock's round values (3 h ticks at 00:00,
 * 03:00…, day ticks at midnight). `offsetMs` is the local time's offset from UTC at `from` (minutes × 60,000, east positive).
 */
export function tickTimes(from: number, to: number, interval: number, offsetMs: number): number[] {
  const out: number[] = [];
  const first = Math.ceil((from + offsetMs) / interval) * interval - offsetMs;
  for (let t = first; t <= to; t += interval) out.push(t);
  return out;
}

/** The index of the bucket still filling at `now` (its end is after now), or -1 when every bucket is complete. */
export function partialBucket(times: readonly number[], stepMs: number, now: number): number {
  const last = times.length - 1;
  return last >= 0 && times[last] <= now && now < times[last] + stepMs ? last : -1;
}

/**
 * The range a page opens on when the address names none: the last hour when everything in `defaultRange` is younger
 * than `recentMs` (two hours: one bar of the day at its right edge would say nothing), else the default. `times` and
 * `counts` are the default range's buckets.
 */
export function rangeForData<R extends string>(times: readonly number[], counts: readonly number[], now: number, defaultRange: R, shortRange: R, recentMs = 2 * 3_600_000): R {
  const firstBusy = counts.findIndex((n) => n > 0);
  if (firstBusy === -1) return defaultRange;
  return now - times[firstBusy] <= recentMs ? shortRange : defaultRange;
}
