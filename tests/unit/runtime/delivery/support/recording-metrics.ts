import type { Counter, Gauge, Histogram, MetricOptions, Metrics } from '@vigil/plugin-sdk';

/**
 * An in-memory `Metrics` for unit tests: it keeps every value by name and label values so a test can read
 * `value('vigil_export_sent_total', 'archive')`. Re-registering a name returns the same metric, as the runtime does;
 * a different type or label set throws, as the runtime does.
 */
export class RecordingMetrics implements Metrics {
  private readonly values = new Map<string, number>();
  private readonly registered = new Map<string, { type: string; labelNames: string }>();

  value(name: string, ...labelValues: string[]): number {
    return this.values.get(key(name, labelValues)) ?? 0;
  }

  /** Every registered metric name. */
  names(): string[] {
    return [...this.registered.keys()];
  }

  labelNamesOf(name: string): string[] | undefined {
    const entry = this.registered.get(name);
    return entry ? (entry.labelNames === '' ? [] : entry.labelNames.split(',')) : undefined;
  }

  counter(name: string, options: MetricOptions): Counter {
    this.register(name, 'counter', options);
    const child = (labelValues: string[]) => ({
      inc: (amount = 1) => this.add(name, labelValues, amount),
    });
    return { ...child([]), labels: (...values: string[]) => child(values) };
  }

  gauge(name: string, options: MetricOptions): Gauge {
    this.register(name, 'gauge', options);
    const child = (labelValues: string[]) => ({
      set: (value: number) => { this.values.set(key(name, labelValues), value); },
      inc: (amount = 1) => this.add(name, labelValues, amount),
      dec: (amount = 1) => this.add(name, labelValues, -amount),
    });
    return { ...child([]), labels: (...values: string[]) => child(values) };
  }

  histogram(name: string, options: MetricOptions): Histogram {
    this.register(name, 'histogram', options);
    const child = (labelValues: string[]) => ({
      observe: (value: number) => this.add(`${name}_sum`, labelValues, value),
    });
    return { ...child([]), labels: (...values: string[]) => child(values) };
  }

  private register(name: string, type: string, options: MetricOptions): void {
    const labelNames = (options.labelNames ?? []).join(',');
    const previous = this.registered.get(name);
    if (previous && (previous.type !== type || previous.labelNames !== labelNames)) {
      throw new Error(`metric ${name} registered twice with a different type or label set`);
    }
    this.registered.set(name, { type, labelNames });
  }

  private add(name: string, labelValues: string[], amount: number): void {
    const k = key(name, labelValues);
    this.values.set(k, (this.values.get(k) ?? 0) + amount);
  }
}

function key(name: string, labelValues: string[]): string {
  return `${name}{${labelValues.join(',')}}`;
}
