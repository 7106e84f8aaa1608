import type { Histogram as SdkHistogram, HistogramChild } from '@vigil/plugin-sdk';
import { metricOptionsError } from './errors.js';
import { MetricFamily, type FamilyDefinition, type Series } from './metric-family.js';
import { familyHeader, formatValue, sampleLine } from './text-format.js';

/** Prometheus' default buckets, in seconds. */
export const DEFAULT_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Checks and copies bucket bounds: finite, strictly ascending; a trailing +Inf is implicit and dropped. */
export function normalizeBuckets(name: string, buckets: readonly number[] | undefined): Float64Array {
  const list = [...(buckets ?? DEFAULT_BUCKETS)];
  if (list.length > 0 && list[list.length - 1] === Infinity) list.pop();
  for (let i = 0; i < list.length; i++) {
    if (typeof list[i] !== 'number' || !Number.isFinite(list[i])) {
      throw metricOptionsError(name, `bucket bounds must be finite numbers, got ${String(list[i])}`);
    }
    if (i > 0 && list[i] <= list[i - 1]) {
      throw metricOptionsError(name, `bucket bounds must be strictly ascending, got ${list[i - 1]} then ${list[i]}`);
    }
  }
  return Float64Array.from(list);
}

export class HistogramSeries implements HistogramChild, Series {
  /**
   * Non-cumulative bucket counts, then the sum, in one array so an observation touches one object: slot i holds
   * observations in (bounds[i-1], bounds[i]], slot n those above every bound, slot n+1 the sum.
   */
  readonly slots: Float64Array;
  constructor(private readonly bounds: Float64Array, readonly labelValues: readonly string[], readonly pairs: string) {
    this.slots = new Float64Array(bounds.length + 2);
  }

  get sum(): number {
    return this.slots[this.bounds.length + 1];
  }

  observe(value: number): void {
    // NaN fits no bucket and would poison the sum for good; it is not recorded.
    if (value !== value) return;
    const bounds = this.bounds;
    const n = bounds.length;
    let i = 0;
    while (i < n && value > bounds[i]) i++;
    const slots = this.slots;
    slots[i]++;
    slots[n + 1] += value;
  }
}

/** Observations in cumulative buckets, with `_sum` and `_count`. */
export class HistogramFamily extends MetricFamily<HistogramSeries> implements SdkHistogram {
  readonly type = 'histogram' as const;
  readonly bounds: Float64Array;
  private readonly boundText: string[];

  constructor(definition: FamilyDefinition, bounds: Float64Array) {
    super(definition);
    this.bounds = bounds;
    this.boundText = [...bounds].map((b) => `le="${formatValue(b)}"`);
    this.boundText.push('le="+Inf"');
    this.init();
  }

  protected createSeries(labelValues: readonly string[], pairs: string): HistogramSeries {
    return new HistogramSeries(this.bounds, labelValues, pairs);
  }

  observe(value: number): void {
    this.unlabelled().observe(value);
  }

  override describe(): string {
    return `${super.describe()} with buckets [${[...this.bounds].join(', ')}]`;
  }

  expose(out: string[]): void {
    const name = this.name;
    out.push(familyHeader(name, this.help, 'histogram'));
    for (const s of this.series) {
      const prefix = s.pairs ? `${s.pairs},` : '';
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += s.slots[i];
        out.push(`${name}_bucket{${prefix}${this.boundText[i]}} ${formatValue(cumulative)}\n`);
      }
      out.push(sampleLine(`${name}_sum`, s.pairs, s.sum));
      out.push(sampleLine(`${name}_count`, s.pairs, cumulative));
    }
  }
}
