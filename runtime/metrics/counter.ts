import type { Counter as SdkCounter, CounterChild } from '@vigil/plugin-sdk';
import { metricValueError } from './errors.js';
import { MetricFamily, type FamilyDefinition, type Series } from './metric-family.js';
import { familyHeader, sampleLine } from './text-format.js';

export class CounterSeries implements CounterChild, Series {
  value = 0;
  constructor(readonly metric: string, readonly labelValues: readonly string[], readonly pairs: string) {}

  inc(amount = 1): void {
    // `!(x >= 0)` also rejects NaN; a counter that went down would read as a reset to every rate() over it.
    if (!(amount >= 0)) throw metricValueError(this.metric, `a counter only goes up; inc(${amount}) rejected`);
    this.value += amount;
  }
}

/** A monotonically increasing count. */
export class CounterFamily extends MetricFamily<CounterSeries> implements SdkCounter {
  readonly type = 'counter' as const;

  constructor(definition: FamilyDefinition) {
    super(definition);
    this.init();
  }

  protected createSeries(labelValues: readonly string[], pairs: string): CounterSeries {
    return new CounterSeries(this.name, labelValues, pairs);
  }

  inc(amount?: number): void {
    this.unlabelled().inc(amount);
  }

  expose(out: string[]): void {
    out.push(familyHeader(this.name, this.help, 'counter'));
    for (const s of this.series) out.push(sampleLine(this.name, s.pairs, s.value));
  }
}
