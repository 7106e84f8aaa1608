import type { Gauge as SdkGauge, GaugeChild } from '@vigil/plugin-sdk';
import { MetricFamily, type FamilyDefinition, type Series } from './metric-family.js';
import { familyHeader, sampleLine } from './text-format.js';

export class GaugeSeries implements GaugeChild, Series {
  value = 0;
  constructor(readonly labelValues: readonly string[], readonly pairs: string) {}
  set(value: number): void { this.value = value; }
  inc(amount = 1): void { this.value += amount; }
  dec(amount = 1): void { this.value -= amount; }
}

/** A value that goes up and down; `collect`, when given, refreshes it at each exposition. */
export class GaugeFamily extends MetricFamily<GaugeSeries> implements SdkGauge {
  readonly type = 'gauge' as const;
  readonly collect: ((gauge: SdkGauge) => void) | undefined;

  constructor(definition: FamilyDefinition, collect?: (gauge: SdkGauge) => void) {
    super(definition);
    this.collect = collect;
    this.init();
  }

  protected createSeries(labelValues: readonly string[], pairs: string): GaugeSeries {
    return new GaugeSeries(labelValues, pairs);
  }

  set(value: number): void { this.unlabelled().set(value); }
  inc(amount?: number): void { this.unlabelled().inc(amount); }
  dec(amount?: number): void { this.unlabelled().dec(amount); }

  expose(out: string[]): void {
    out.push(familyHeader(this.name, this.help, 'gauge'));
    for (const s of this.series) out.push(sampleLine(this.name, s.pairs, s.value));
  }
}
