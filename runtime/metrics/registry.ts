import type { Gauge, HistogramOptions, MetricOptions, Metrics } from '@vigil/plugin-sdk';
import { CounterFamily } from './counter.js';
import { metricConflictError, metricOptionsError } from './errors.js';
import { GaugeFamily } from './gauge.js';
import { HistogramFamily, normalizeBuckets } from './histogram.js';
import type { FamilyDefinition, MetricFamily, Series } from './metric-family.js';
import { checkLabelNames, checkMetricName, type MetricType } from './metric-name-rules.js';
import { PROMETHEUS_CONTENT_TYPE } from './text-format.js';

type AnyFamily = MetricFamily<Series> & { collect?: (gauge: Gauge) => void };

const DEFAULT_MAX_VALUES_PER_LABEL = 100;
// The runtime's own bookkeeping metrics are labelled by metric and label names, which are bounded by code, not by
// traffic; their cap only guards against a runaway registration loop.
const BOOKKEEPING_MAX_VALUES = 10_000;

function checkCap(name: string, cap: unknown): number {
  if (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 1) {
    throw metricOptionsError(name, `maxValuesPerLabel must be a positive integer, got ${String(cap)}`);
  }
  return cap;
}

/**
 * Every metric of one process. Plugins get a `Metrics` view that prefixes their names; the runtime uses `core`.
 * `expose()` renders the Prometheus text format served on `/metrics`.
 */
export class MetricsRegistry {
  readonly contentType = PROMETHEUS_CONTENT_TYPE;
  /** Unprefixed, for the runtime itself. */
  readonly core: Metrics;
  private readonly families = new Map<string, AnyFamily>();
  private readonly scopes = new Map<string, Metrics>();
  private readonly collectHooks = new Map<string, () => void>();
  private readonly defaultMaxValuesPerLabel: number;
  private readonly overflow: CounterFamily;
  private readonly collectErrors: CounterFamily;

  constructor(options: { defaultMaxValuesPerLabel?: number } = {}) {
    this.defaultMaxValuesPerLabel = checkCap('(registry default)', options.defaultMaxValuesPerLabel ?? DEFAULT_MAX_VALUES_PER_LABEL);
    this.core = this.scope('the runtime', '');
    this.overflow = this.register('counter', 'vigil_metrics_label_overflow_total', {
      help: 'Label values recorded as __other__ because the label reached its cardinality cap.',
      labelNames: ['metric', 'label'],
      maxValuesPerLabel: BOOKKEEPING_MAX_VALUES,
    }, 'the runtime') as CounterFamily;
    this.collectErrors = this.register('counter', 'vigil_metrics_collect_errors_total', {
      help: 'Exceptions thrown by metric collect callbacks while /metrics was rendered.',
      labelNames: ['metric'],
      maxValuesPerLabel: BOOKKEEPING_MAX_VALUES,
    }, 'the runtime') as CounterFamily;
  }

  /** Metrics of one plugin: a name not starting with `vigil_` or `node_` becomes `vigil_<plugin>_<name>` (dashes as underscores). */
  forPlugin(plugin: string): Metrics {
    let scope = this.scopes.get(plugin);
    if (!scope) {
      scope = this.scope(`plugin "${plugin}"`, `vigil_${plugin.replace(/[^a-zA-Z0-9_]/g, '_')}_`);
      this.scopes.set(plugin, scope);
    }
    return scope;
  }

  /**
   * Runs `hook` before each exposition, for values read on demand (process CPU, memory). A throw is counted in
   * `vigil_metrics_collect_errors_total{metric=name}` and the rest of the exposition goes on. Returns a remover.
   */
  onCollect(name: string, hook: () => void): () => void {
    this.collectHooks.set(name, hook);
    return () => {
      if (this.collectHooks.get(name) === hook) this.collectHooks.delete(name);
    };
  }

  /** Removes a metric; a later registration of the name starts from zero. Returns whether it existed. */
  unregister(name: string): boolean {
    return this.families.delete(name);
  }

  /** Prometheus text exposition format 0.0.4, families sorted by name. */
  expose(): string {
    for (const [name, hook] of this.collectHooks) {
      try { hook(); } catch { this.collectErrors.labels(name).inc(); }
    }
    const out: string[] = [];
    const names = [...this.families.keys()].sort();
    for (const name of names) {
      const family = this.families.get(name)!;
      if (family.collect) {
        try { family.collect(family as unknown as Gauge); } catch { this.collectErrors.labels(name).inc(); }
      }
    }
    for (const name of names) this.families.get(name)!.expose(out);
    return out.join('');
  }

  private scope(owner: string, prefix: string): Metrics {
    // node-exporter's names (`node_cpu_seconds_total`) are kept as they are, for the host probes: Grafana's node
    // dashboards and recording rules query them by name.
    const fullName = (name: string): string => (name.startsWith('vigil_') || name.startsWith('node_') || !prefix ? name : prefix + name);
    return {
      counter: (name, options) => this.register('counter', fullName(name), options, owner) as CounterFamily,
      gauge: (name, options) => this.register('gauge', fullName(name), options, owner) as GaugeFamily,
      histogram: (name, options) => this.register('histogram', fullName(name), options, owner) as HistogramFamily,
    };
  }

  private register(
    type: MetricType,
    name: string,
    options: MetricOptions & HistogramOptions & { collect?: (gauge: Gauge) => void },
    owner: string,
  ): AnyFamily {
    if (!options || typeof options.help !== 'string' || options.help.trim() === '') {
      throw metricOptionsError(name, 'help is required: one line saying what is counted and in which unit');
    }
    const labelNames = options.labelNames ?? [];
    checkMetricName(name, type);
    checkLabelNames(name, type, labelNames);
    const definition: FamilyDefinition = {
      name,
      help: options.help,
      labelNames,
      maxValuesPerLabel: checkCap(name, options.maxValuesPerLabel ?? this.defaultMaxValuesPerLabel),
      owner,
      onOverflow: (metric, label) => this.overflow.labels(metric, label).inc(),
    };
    const bounds = type === 'histogram' ? normalizeBuckets(name, options.buckets) : undefined;
    const existing = this.families.get(name);
    if (existing) {
      const same = existing.type === type &&
        existing.labelNames.length === labelNames.length &&
        existing.labelNames.every((l, i) => l === labelNames[i]) &&
        (!bounds || sameBounds((existing as unknown as HistogramFamily).bounds, bounds));
      if (same) return existing;
      const wanted = `${type}{${labelNames.join(',')}}${bounds ? ` with buckets [${[...bounds].join(', ')}]` : ''}`;
      throw metricConflictError(name, existing.describe(), existing.owner, wanted, owner);
    }
    let family: AnyFamily;
    if (type === 'counter') family = new CounterFamily(definition);
    else if (type === 'gauge') family = new GaugeFamily(definition, options.collect) as unknown as AnyFamily;
    else family = new HistogramFamily(definition, bounds!);
    this.families.set(name, family);
    return family;
  }
}

function sameBounds(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
