import { VigilError } from '@vigil/plugin-sdk';

/** Stable codes of the metrics layer. */
export const MetricErrorCode = {
  /** A name or label name breaks the Prometheus naming rules that `promtool check metrics` enforces. */
  NAME: 'VIGIL_ERR_METRIC_NAME',
  /** The same metric name registered again with another type, label set or bucket layout. */
  CONFLICT: 'VIGIL_ERR_METRIC_CONFLICT',
  /** Bad options: missing help, unsorted buckets, a bad cardinality cap. */
  OPTIONS: 'VIGIL_ERR_METRIC_OPTIONS',
  /** A value the metric type cannot take, e.g. a counter decreased, or more label values than label names. */
  VALUE: 'VIGIL_ERR_METRIC_VALUE',
} as const;

export function metricNameError(name: string, problem: string): VigilError {
  return new VigilError(MetricErrorCode.NAME, `metric ${JSON.stringify(name)}: ${problem}`);
}

export function metricOptionsError(name: string, problem: string): VigilError {
  return new VigilError(MetricErrorCode.OPTIONS, `metric ${JSON.stringify(name)}: ${problem}`);
}

export function metricValueError(name: string, problem: string): VigilError {
  return new VigilError(MetricErrorCode.VALUE, `metric ${JSON.stringify(name)}: ${problem}`);
}

export function metricConflictError(name: string, existing: string, existingOwner: string, wanted: string, wantedOwner: string): VigilError {
  return new VigilError(
    MetricErrorCode.CONFLICT,
    `metric ${JSON.stringify(name)} is already registered as ${existing} by ${existingOwner}; ${wantedOwner} tried to ` +
      `register it as ${wanted}. Use another name, or the same type and label names.`,
  );
}
