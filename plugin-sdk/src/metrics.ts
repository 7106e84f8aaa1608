/**
 * Metrics with label dimensions, exposed in Prometheus text format on `/metrics`.
 *
 * Names: a name that starts with `vigil_` is registered as is (built-in plugins use this for product-level names
 * such as `vigil_http_requests_total`), and so is one that starts with `node_` (node-exporter's names, which the host
 * probes keep so Grafana's node dashboards work); any other name is prefixed with `vigil_<plugin>_`. Registering the same name
 * twice with a different type or label set is an error.
 *
 * Cardinality: each label keeps at most `maxValuesPerLabel` distinct values (default 100); further values are
 * recorded as `__other__` and counted in `vigil_metrics_label_overflow_total{metric,label}`.
 *
 * Hot paths: bind label values once with `labels(...)` and keep the child; `inc`/`observe` on a child is a few
 * property writes.
 */
export interface MetricOptions {
  help: string;
  labelNames?: readonly string[];
  maxValuesPerLabel?: number;
}

export interface HistogramOptions extends MetricOptions {
  /** Upper bounds, ascending. Default: Prometheus' default seconds buckets. */
  buckets?: readonly number[];
}

export interface CounterChild { inc(amount?: number): void }
export interface GaugeChild { set(value: number): void; inc(amount?: number): void; dec(amount?: number): void }
export interface HistogramChild { observe(value: number): void }

export interface Counter extends CounterChild {
  /** Label values in `labelNames` order. Missing values are recorded as empty strings. */
  labels(...values: string[]): CounterChild;
}
export interface Gauge extends GaugeChild {
  labels(...values: string[]): GaugeChild;
}
export interface Histogram extends HistogramChild {
  labels(...values: string[]): HistogramChild;
}

export interface Metrics {
  counter(name: string, options: MetricOptions): Counter;
  gauge(name: string, options: MetricOptions & { collect?: (gauge: Gauge) => void }): Gauge;
  histogram(name: string, options: HistogramOptions): Histogram;
}
