import { defineErrorCodes, VigilError } from '@vigil/plugin-sdk';

/** Codes of the metrics layer. Each is caused by code registering or updating a metric: the runtime's or a plugin's. */
export const MetricErrors = defineErrorCodes('METRIC', {
  NAME: {
    meaning: 'A metric or label name breaks the Prometheus naming rules that `promtool check metrics` enforces (characters, ' +
      'reserved names, a counter not ending in _total, a unit suffix that does not fit the type).',
    action: 'Plugin authors: rename the metric or label as the message says; operators: report it to the author of the ' +
      'plugin that registers it.',
  },
  CONFLICT: {
    meaning: 'A metric name is registered again with another type, label set or bucket layout (by the same or another plugin).',
    action: 'Plugin authors: use another name, or the same type and label names; the message names both registrations.',
  },
  OPTIONS: {
    meaning: 'A metric is registered with options that cannot work: no help text, buckets that are not increasing, a bad ' +
      'cardinality cap.',
    action: 'Plugin authors: fix the option the message names.',
  },
  VALUE: {
    meaning: 'A metric got a value its type cannot take (a counter decreased) or a ' +
      'wrong number of label values.',
    action: 'Plugin authors: pass one value per label name, and only increase counters (use a gauge for values that go down).',
  },
});

export function metricNameError(name: string, problem: string): VigilError {
  return new VigilError(MetricErrors.NAME, `metric ${JSON.stringify(name)}: ${problem}`);
}

export function metricOptionsError(name: string, problem: string): VigilError {
  return new VigilError(MetricErrors.OPTIONS, `metric ${JSON.stringify(name)}: ${problem}`);
}

export function metricValueError(name: string, problem: string): VigilError {
  return new VigilError(MetricErrors.VALUE, `metric ${JSON.stringify(name)}: ${problem}`);
}

export function metricConflictError(name: string, existing: string, existingOwner: string, wanted: string, wantedOwner: string): VigilError {
  return new VigilError(
    MetricErrors.CONFLICT,
    `metric ${JSON.stringify(name)} is already registered as ${existing} by ${existingOwner}; ${wantedOwner} tried to ` +
      `register it as ${wanted}. Use another name, or the same type and label names.`,
  );
}
