import type { CaptureConfig } from '../../gateway/records/lane-tasks.js';

/**
 * Cost from the configured prices (`capture.pricing`): tokens / 1000 × per_1k_tokens + requests × per_request, in
 * the configured currency, rounded to 1e-6 so sums stay readable. Linear, so a sum of costs equals the cost of sums
 * up to that rounding.
 */
export function usageCost(pricing: CaptureConfig['pricing'], requests: number, tokens: number): number {
  return Math.round(((tokens / 1000) * pricing.per_1k_tokens + requests * pricing.per_request) * 1e6) / 1e6;
}
