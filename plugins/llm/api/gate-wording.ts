// The gate's checks in words a reader of a CI log understands without the API's names: "cost per call +153 %,
// limit +5 %" rather than "max_cost_increase_pct". Shared by the verdict's reason and `vigil gate`'s table.
import type { GateCheck, ThresholdName } from './gate.js';

/** What each threshold measures, as a sentence names it. */
export const CHECK_NAMES: Record<ThresholdName, string> = {
  min_score: 'eval score',
  max_score_drop: 'eval score',
  max_p95_increase_pct: 'P95 latency',
  max_error_rate: 'error rate',
  max_error_rate_increase: 'error rate',
  max_cost_increase_pct: 'cost per call',
};

const trim = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);
/** A figure with at most one decimal below 10 and none above: "+153", "4.5". */
const figure = (n: number): string => trim(Math.abs(n).toFixed(Math.abs(n) >= 10 ? 0 : 1));
const signed = (n: number): string => `${n < 0 ? '−' : '+'}${figure(n)}`;
const points = (rate: number): string => `${signed(rate * 100)} points`;

/** A version's own value for the metric, with its unit: "0.84", "812 ms", "4.5 %", "$0.0031". */
export function formatSideValue(metric: ThresholdName, value: number | null): string {
  if (value === null) return '–';
  switch (metric) {
    case 'min_score':
    case 'max_score_drop': return value.toFixed(2);
    case 'max_p95_increase_pct': return `${Math.round(value)} ms`;
    case 'max_error_rate':
    case 'max_error_rate_increase': return `${figure(value * 100)} %`;
    default: return value === 0 ? '$0' : `$${value >= 1 ? value.toFixed(2) : value.toPrecision(2)}`;
  }
}

/** What the check holds against its limit, with its unit: "+153 %", "+16 points", "0.62". */
export function formatMeasured(c: Pick<GateCheck, 'metric' | 'value' | 'baseline' | 'candidate'>): string {
  if (c.value === null) {
    // A percentage rise from zero has no finite value; it is still a rise.
    const fromZero = c.baseline === 0 && c.candidate !== null && c.candidate > 0;
    return fromZero ? `up from ${formatSideValue(c.metric, 0)}` : '–';
  }
  switch (c.metric) {
    case 'min_score': return c.value.toFixed(2);
    case 'max_score_drop': return `${c.value < 0 ? '+' : '−'}${Math.abs(c.value).toFixed(2)}`;
    case 'max_p95_increase_pct':
    case 'max_cost_increase_pct': return `${signed(c.value)} %`;
    case 'max_error_rate': return `${figure(c.value * 100)} %`;
    default: return points(c.value);
  }
}

/** The limit as the check reads it: "at least 0.80", "+20 %", "+2 points". */
export function formatLimit(metric: ThresholdName, threshold: number): string {
  switch (metric) {
    case 'min_score': return `at least ${threshold.toFixed(2)}`;
    case 'max_score_drop': return `−${threshold.toFixed(2)}`;
    case 'max_p95_increase_pct':
    case 'max_cost_increase_pct': return `${signed(threshold)} %`;
    case 'max_error_rate': return `${figure(threshold * 100)} %`;
    default: return points(threshold);
  }
}

/** One check in words: "cost per call +153 %, limit +5 %". */
export function describeCheck(c: GateCheck): string {
  return `${CHECK_NAMES[c.metric]} ${formatMeasured(c)}, limit ${formatLimit(c.metric, c.threshold)}`;
}

/** Why a check has no value, in words: "no eval scores yet". */
export function missingValue(metric: ThresholdName): string {
  if (metric === 'min_score' || metric === 'max_score_drop') return 'no eval scores yet (the evaluators score calls after they are stored)';
  if (metric === 'max_p95_increase_pct') return 'no latencies were sent';
  return 'no value yet';
}
