import { CHECK_NAMES, describeCheck, missingValue } from './gate-wording.js';
import type { CallStats } from './version-stats.js';

/** Calls each version needs before the gate gives a verdict. */
export const DEFAULT_MIN_SAMPLES = 30;

export const THRESHOLDS = [
  'min_score', 'max_score_drop', 'max_p95_increase_pct', 'max_error_rate', 'max_error_rate_increase', 'max_cost_increase_pct',
] as const;
export type ThresholdName = (typeof THRESHOLDS)[number];
export type Thresholds = Partial<Record<ThresholdName, number>>;

/**
 * Checked unless the request names its own value for them: a threshold typed for one metric must not silently drop the
 * others (a gate that checks nothing would pass anything).
 */
export const DEFAULT_THRESHOLDS: Thresholds = { max_error_rate_increase: 0.02, max_p95_increase_pct: 20 };

export interface GateCheck {
  metric: ThresholdName;
  baseline: number | null;
  candidate: number | null;
  threshold: number;
  /** What is held against the threshold (the candidate's value, a drop, an increase); null when unknown. */
  value: number | null;
  /** Null when a value is missing (no eval scores yet, no latencies). */
  pass: boolean | null;
}

export interface GateSide {
  version: number;
  samples: number;
  stats: Pick<CallStats, 'avg_score' | 'p95_latency_ms' | 'error_rate' | 'avg_cost_usd' | 'cost_usd' | 'requests' | 'errors'>;
}

export interface GateVerdict {
  pass: boolean | null;
  reason: string;
  template: string;
  baseline: GateSide | null;
  candidate: GateSide;
  min_samples: number;
  checks: GateCheck[];
}

/** Percent change from `a` to `b`; null when either is unknown; 0 → 0 is 0 %, 0 → more is +∞ (never passes a limit). */
function pctIncrease(a: number | null, b: number | null): number | null {
  if (a === null || b === null) return null;
  if (a === 0) return b === 0 ? 0 : Number.POSITIVE_INFINITY;
  return ((b - a) / a) * 100;
}

const diff = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : b - a);

function check(metric: ThresholdName, threshold: number, base: CallStats, cand: CallStats): GateCheck {
  const pair = (pick: (s: CallStats) => number | null) => [pick(base), pick(cand)] as const;
  let values: readonly [number | null, number | null];
  let value: number | null;
  let ok: (v: number) => boolean;
  switch (metric) {
    case 'min_score': values = pair((s) => s.avg_score); value = values[1]; ok = (v) => v >= threshold; break;
    case 'max_score_drop': values = pair((s) => s.avg_score); value = diff(values[1], values[0]); ok = (v) => v <= threshold; break;
    case 'max_p95_increase_pct': values = pair((s) => s.p95_latency_ms); value = pctIncrease(...values); ok = (v) => v <= threshold; break;
    case 'max_error_rate': values = pair((s) => s.error_rate); value = values[1]; ok = (v) => v <= threshold; break;
    case 'max_error_rate_increase': values = pair((s) => s.error_rate); value = diff(...values); ok = (v) => v <= threshold; break;
    default: values = pair((s) => s.avg_cost_usd); value = pctIncrease(...values); ok = (v) => v <= threshold; break;
  }
  // JSON has no infinity: an increase from zero is reported as null, and fails.
  const finite = value === null || Number.isFinite(value) ? value : null;
  return { metric, baseline: values[0], candidate: values[1], threshold, value: finite, pass: value === null ? null : ok(value) };
}

/** The thresholds a request names, over the defaults for those it leaves out. */
export function withDefaults(thresholds: Thresholds): Thresholds {
  const used: Thresholds = { ...DEFAULT_THRESHOLDS };
  for (const t of THRESHOLDS) if (thresholds[t] !== undefined) used[t] = thresholds[t];
  return used;
}

const side = (version: number, s: CallStats): GateSide => ({
  version, samples: s.requests,
  stats: { requests: s.requests, errors: s.errors, error_rate: s.error_rate, avg_score: s.avg_score, p95_latency_ms: s.p95_latency_ms, avg_cost_usd: s.avg_cost_usd, cost_usd: s.cost_usd },
});

/**
 * The CI gate's verdict on a candidate version against a baseline. Too few samples on either side: `pass` is null,
 * whatever the checks say (they are still shown). Otherwise a failed check fails the gate, and a check that cannot be
 * computed (no eval scores yet) leaves it null.
 */
export function judge(template: string, baseline: { version: number; stats: CallStats } | null, candidate: { version: number; stats: CallStats }, thresholds: Thresholds, minSamples: number): GateVerdict {
  const used = withDefaults(thresholds);
  const out = { template, baseline: baseline ? side(baseline.version, baseline.stats) : null, candidate: side(candidate.version, candidate.stats), min_samples: minSamples };
  if (!baseline) {
    return { ...out, pass: null, reason: `version ${candidate.version} is the first of "${template}": there is no baseline to compare with`, checks: [] };
  }
  const checks = THRESHOLDS.filter((t) => used[t] !== undefined).map((t) => check(t, used[t]!, baseline.stats, candidate.stats));
  const short = [baseline, candidate].filter((s) => s.stats.requests < minSamples);
  if (short.length) {
    const counts = short.map((s) => `v${s.version} has ${s.stats.requests}`).join(', ');
    return { ...out, pass: null, reason: `too few samples: ${counts} (min_samples ${minSamples})`, checks };
  }
  const failed = checks.filter((c) => c.pass === false);
  if (failed.length) return { ...out, pass: false, reason: failed.map(describeCheck).join('; '), checks };
  const unknown = checks.filter((c) => c.pass === null);
  if (unknown.length) return { ...out, pass: null, reason: unknown.map((c) => `cannot check ${CHECK_NAMES[c.metric]}: ${missingValue(c.metric)}`).join('; '), checks };
  return { ...out, pass: true, reason: `v${candidate.version} passes ${checks.length} checks against v${baseline.version}`, checks };
}
