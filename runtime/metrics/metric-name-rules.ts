import { metricNameError } from './errors.js';

export type MetricType = 'counter' | 'gauge' | 'histogram';

// The rules below are the ones `promtool check metrics` lints for. Checking them at registration turns a scrape
// that promtool would reject into an error at the line that registered the metric.
const METRIC_NAME = /^[a-z_][a-z0-9_]*$/;
// node-exporter names its memory gauges after the kernel's /proc/meminfo fields (`node_memory_MemAvailable_bytes`);
// dashboards query those exact names, so they are the one exception to snake_case (promtool's lint names them).
const NODE_MEMINFO_NAME = /^node_memory_[A-Za-z0-9_]+_bytes$/;
const LABEL_NAME = /^[a-z_][a-z0-9_]*$/;

const BASE_UNITS: Record<string, string> = {
  amperes: 'amperes', bytes: 'bytes', celsius: 'celsius', grams: 'grams', joules: 'joules', kelvin: 'kelvin',
  meters: 'meters', metres: 'metres', seconds: 'seconds', volts: 'volts',
  minutes: 'seconds', hours: 'seconds', days: 'seconds', weeks: 'seconds',
  kelvins: 'kelvin', fahrenheit: 'celsius', rankine: 'celsius',
  inches: 'meters', yards: 'meters', miles: 'meters', bits: 'bytes', calories: 'joules', pounds: 'grams', ounces: 'grams',
};
const UNIT_PREFIXES = [
  'pico', 'nano', 'micro', 'milli', 'centi', 'deci', 'deca', 'hecto', 'kilo', 'kibi', 'mega', 'mibi', 'giga', 'gibi',
  'tera', 'tebi', 'peta', 'pebi',
];
const UNIT_ABBREVIATIONS = new Set(['s', 'ms', 'us', 'ns', 'sec', 'b', 'kb', 'mb', 'gb', 'tb', 'pb', 'm', 'h', 'd']);
const TYPE_WORDS = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function unitOf(word: string): { unit: string; base: string } | undefined {
  if (BASE_UNITS[word]) return { unit: word, base: BASE_UNITS[word] };
  for (const prefix of UNIT_PREFIXES) {
    if (word.startsWith(prefix) && BASE_UNITS[word.slice(prefix.length)]) {
      return { unit: word, base: BASE_UNITS[word.slice(prefix.length)] };
    }
  }
  return undefined;
}

/** Throws `VIGIL_ERR_METRIC_NAME` when `name` would fail `promtool check metrics` as a metric of `type`. */
export function checkMetricName(name: string, type: MetricType): void {
  if (!METRIC_NAME.test(name) && !(type === 'gauge' && NODE_MEMINFO_NAME.test(name))) {
    throw metricNameError(name, 'names are snake_case: lowercase letters, digits and underscores, not starting with a digit');
  }
  if (type === 'counter' && !name.endsWith('_total')) {
    throw metricNameError(name, `a counter's name ends with "_total" (e.g. "${name}_total")`);
  }
  if (type !== 'counter' && name.endsWith('_total')) {
    throw metricNameError(name, `only counters end with "_total"; a ${type} does not`);
  }
  for (const suffix of ['_bucket', '_count', '_sum']) {
    if (name.endsWith(suffix)) {
      throw metricNameError(name, `the suffix "${suffix}" is reserved for the series of histograms`);
    }
  }
  for (const word of name.split('_')) {
    if (UNIT_ABBREVIATIONS.has(word)) {
      throw metricNameError(name, `abbreviated unit "${word}": spell the base unit out (seconds, bytes, meters)`);
    }
    if (TYPE_WORDS.has(word)) {
      throw metricNameError(name, `the name must not include the metric type "${word}"`);
    }
    const unit = unitOf(word);
    if (unit && unit.unit !== unit.base) {
      throw metricNameError(name, `use the base unit "${unit.base}" instead of "${unit.unit}"`);
    }
  }
}

/** Throws `VIGIL_ERR_METRIC_NAME` for a label name Prometheus rejects or reserves. */
export function checkLabelNames(name: string, type: MetricType, labelNames: readonly string[]): void {
  const seen = new Set<string>();
  for (const label of labelNames) {
    if (!LABEL_NAME.test(label)) {
      throw metricNameError(name, `label name ${JSON.stringify(label)} must be snake_case (lowercase letters, digits, underscores)`);
    }
    if (label.startsWith('__')) throw metricNameError(name, `label names starting with "__" are reserved (${label})`);
    if (label === 'quantile' || (type === 'histogram' && label === 'le')) {
      throw metricNameError(name, `label name "${label}" is reserved`);
    }
    if (seen.has(label)) throw metricNameError(name, `label name "${label}" appears twice`);
    seen.add(label);
  }
}
