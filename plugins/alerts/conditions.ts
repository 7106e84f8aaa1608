import type { AlertBudgetReading, AlertReading } from '@vigil/plugin-sdk';
import type { AlertCondition } from './types.js';

/** Windows before the current one that an `anomaly` rule's baseline needs, every one with data. */
export const ANOMALY_BASELINE_WINDOWS = 24;
/** The baseline's standard deviation is taken as at least this share of the absolute value of its mean. */
export const ANOMALY_STD_FLOOR = 0.05;
export const DEFAULT_ANOMALY_Z = 3;

/** How many consecutive windows (the current one last) a condition reads. */
export function windowsNeeded(condition: AlertCondition): number {
  switch (condition.type) {
    case 'pct_change': return 2;
    case 'anomaly': return ANOMALY_BASELINE_WINDOWS + 1;
    case 'budget': case 'prompt_version_change': return 0;
    default: return 1;
  }
}

/**
 * What a condition says of the readings. `breach` is null when it cannot say (too few samples, no baseline): such a
 * window never fires, and never resolves a firing rule either.
 */
export interface Verdict {
  breach: boolean | null;
  /** The current window's value (spend, for `budget`). */
  value: number | null;
  /** The value at which it fires: the threshold, the boundary of the change or z-score, the share of the cap. */
  threshold: number | null;
  samples: number;
  /** Why there is no verdict, or how the value compares, in words. */
  note: string;
}

const enough = (r: AlertReading | undefined, minSamples: number): r is AlertReading & { value: number } =>
  r !== undefined && r.value !== null && Number.isFinite(r.value) && r.samples >= Math.max(1, minSamples);

/** The mean and population standard deviation of the values. */
export function meanAndStd(values: readonly number[]): { mean: number; std: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
  return { mean, std: Math.sqrt(variance) };
}

/**
 * Judges `readings` (consecutive windows, oldest first, the current one last, as many as `windowsNeeded` says).
 *
 * - `gt` / `lt`: the current value against the threshold, strictly; `gte` / `lte` fire at the threshold too.
 * - `pct_change`: the current value against the window before, as a change in percent of the earlier value:
 *   `up` fires at ≥ +pct, `down` at ≤ −pct, `either` at |change| ≥ pct. Both windows need `min_samples`, and an
 *   earlier value of 0 gives no verdict (no percentage of zero).
 * - `anomaly`: z = (current − μ) / σ′ over the 24 windows before, every one with `min_samples`, where μ and σ are
 *   their mean and population standard deviation and σ′ = max(σ, 0.05 · |μ|): a flat baseline does not make every
 *   wobble an anomaly. Fires at |z| ≥ `z` (default 3). With σ′ = 0 (a baseline of zeros) there is no verdict.
 */
export function judge(condition: AlertCondition, readings: readonly AlertReading[], minSamples: number): Verdict {
  const current = readings[readings.length - 1];
  const samples = current?.samples ?? 0;
  const none = (note: string): Verdict => ({ breach: null, value: current?.value ?? null, threshold: null, samples, note });
  if (!enough(current, minSamples)) return none(`${samples} samples, fewer than the ${Math.max(1, minSamples)} needed`);
  const value = current.value;
  switch (condition.type) {
    case 'gt': case 'lt': {
      const breach = condition.type === 'gt' ? value > condition.threshold : value < condition.threshold;
      return { breach, value, threshold: condition.threshold, samples, note: `${fmt(value)} ${breach ? (condition.type === 'gt' ? '>' : '<') : (condition.type === 'gt' ? '≤' : '≥')} ${fmt(condition.threshold)}` };
    }
    case 'gte': case 'lte': {
      const breach = condition.type === 'gte' ? value >= condition.threshold : value <= condition.threshold;
      return { breach, value, threshold: condition.threshold, samples, note: `${fmt(value)} ${breach ? (condition.type === 'gte' ? '≥' : '≤') : (condition.type === 'gte' ? '<' : '>')} ${fmt(condition.threshold)}` };
    }
    case 'pct_change': {
      const previous = readings[readings.length - 2];
      if (!enough(previous, minSamples)) return none('the previous window has too few samples');
      if (previous.value === 0) return none('the previous window is 0: no percentage of zero');
      // Rounded to 1e-9 %: 0.8 against 1 is a fall of 20 %, not of 19.999999999999996 %.
      const change = Math.round(((value - previous.value) / Math.abs(previous.value)) * 100 * 1e9) / 1e9;
      const { direction, pct } = condition;
      const breach = direction === 'up' ? change >= pct : direction === 'down' ? change <= -pct : Math.abs(change) >= pct;
      const sign = direction === 'down' || (direction === 'either' && change < 0) ? -1 : 1;
      const threshold = previous.value + (sign * pct / 100) * Math.abs(previous.value);
      return { breach, value, threshold, samples, note: `${fmt(value)}, ${change >= 0 ? '+' : ''}${fmt(change)} % against ${fmt(previous.value)} the window before` };
    }
    case 'anomaly': {
      const baseline = readings.slice(0, -1);
      if (baseline.length < ANOMALY_BASELINE_WINDOWS || !baseline.slice(-ANOMALY_BASELINE_WINDOWS).every((r) => enough(r, minSamples))) {
        return none(`the baseline needs ${ANOMALY_BASELINE_WINDOWS} earlier windows with data`);
      }
      const { mean, std } = meanAndStd(baseline.slice(-ANOMALY_BASELINE_WINDOWS).map((r) => r.value as number));
      const floored = Math.max(std, ANOMALY_STD_FLOOR * Math.abs(mean));
      if (floored === 0) return none('the baseline is constantly 0');
      const z = (value - mean) / floored;
      const limit = condition.z ?? DEFAULT_ANOMALY_Z;
      return {
        breach: Math.abs(z) >= limit, value, threshold: mean + Math.sign(z || 1) * limit * floored, samples,
        note: `${fmt(value)}, z = ${fmt(z)} against a mean of ${fmt(mean)} (σ′ ${fmt(floored)})`,
      };
    }
    default:
      return none(`${condition.type} is not judged on windows`);
  }
}

/** A `budget` rule's verdict: month-to-date spend at or past `pct` % of the cap (default 100). No cap, no verdict. */
export function judgeBudget(condition: { pct?: number }, reading: AlertBudgetReading): Verdict {
  if (reading.cap === null) return { breach: null, value: reading.spent, threshold: null, samples: 0, note: 'the project has no monthly budget' };
  const threshold = reading.cap * ((condition.pct ?? 100) / 100);
  const breach = reading.spent >= threshold;
  return { breach, value: reading.spent, threshold, samples: 1, note: `${fmt(reading.spent)} spent this month, ${breach ? '≥' : '<'} ${fmt(threshold)} of a ${fmt(reading.cap)} cap` };
}

/** Numbers in messages: at most 4 significant digits, no exponent for everyday sizes. */
export function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  if (abs >= 1000 || Number.isInteger(v)) return String(Math.round(v * 100) / 100);
  return String(Number(v.toPrecision(4)));
}
