export { MetricsRegistry } from './registry.js';
export { registerProcessMetrics } from './process-metrics.js';
export { OVERFLOW_LABEL_VALUE } from './metric-family.js';
export { DEFAULT_BUCKETS } from './histogram.js';
export { PROMETHEUS_CONTENT_TYPE } from './text-format.js';
export { MetricErrors } from './errors.js';
