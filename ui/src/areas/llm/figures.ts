// How the LLM pages write their figures: dollars down to the fraction of a cent one call costs, scores, and the
// change between two versions. Pure functions.
import { formatLatency, formatPercent } from '../../format/numbers.js';
import type { ThresholdName } from './llm-api.js';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });

/**
 * USD as a bill shows it from a dollar up ($1,234.56), to the hundredth of a cent below ($0.0252), and below a cent
 * with two significant digits ($0.00042): one LLM call often costs less than a cent, and `$0.00` would hide it.
 */
export function formatUsd(amount: number | null | undefined): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '—';
  if (amount === 0) return '$0';
  const abs = Math.abs(amount);
  if (abs >= 1) return usd.format(amount);
  if (abs >= 0.01) return cents.format(amount);
  const digits = Math.min(10, 1 - Math.floor(Math.log10(abs)));
  return `${amount < 0 ? '-' : ''}$${abs.toFixed(digits)}`;
}

/** An average eval score (0..1), or what its absence means. */
export const formatScore = (score: number | null | undefined): string => (score === null || score === undefined ? 'no evals yet' : score.toFixed(2));

/** A check's value for its metric: a score, a latency, a rate or a cost. */
export function formatMetric(metric: ThresholdName, value: number | null): string {
  if (value === null) return '—';
  switch (metric) {
    case 'min_score':
    case 'max_score_drop': return value.toFixed(2);
    case 'max_p95_increase_pct': return formatLatency(value);
    case 'max_error_rate':
    case 'max_error_rate_increase': return formatPercent(value);
    default: return formatUsd(value);
  }
}

/** What a check holds against its threshold: `+12.5%`, `+3.2 points`, `0.84`; null (unknown, or up from zero) as `—`. */
export function formatCheckValue(metric: ThresholdName, value: number | null): string {
  if (value === null) return '—';
  const sign = value > 0 ? '+' : value < 0 ? '−' : '';
  const abs = Math.abs(value);
  switch (metric) {
    case 'max_p95_increase_pct':
    case 'max_cost_increase_pct': return `${sign}${trim(abs.toFixed(abs >= 100 ? 0 : 1))}%`;
    case 'max_error_rate_increase': return `${sign}${trim((abs * 100).toFixed(1))} points`;
    case 'max_error_rate': return formatPercent(value);
    case 'max_score_drop': return `${sign}${abs.toFixed(2)}`;
    default: return value.toFixed(2);
  }
}

/** A threshold as the check reads it: `≤ 20%`, `≤ 2 points`, `≥ 0.80`. */
export function formatThreshold(metric: ThresholdName, threshold: number): string {
  switch (metric) {
    case 'min_score': return `≥ ${threshold.toFixed(2)}`;
    case 'max_score_drop': return `≤ ${threshold.toFixed(2)}`;
    case 'max_p95_increase_pct':
    case 'max_cost_increase_pct': return `≤ +${trim(String(threshold))}%`;
    case 'max_error_rate': return `≤ ${formatPercent(threshold)}`;
    default: return `≤ +${trim((threshold * 100).toFixed(2))} points`;
  }
}

const trim = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);
