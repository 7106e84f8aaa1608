// Pieces of the Prometheus text exposition format 0.0.4.

/** Content-Type of `/metrics`. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A sample value: Go's float syntax, with `+Inf`, `-Inf` and `NaN` spelled the way Prometheus parses them. */
export function formatValue(value: number): string {
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  if (Number.isNaN(value)) return 'NaN';
  return String(value);
}

/** HELP text escapes only backslash and newline. */
export function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** Label values escape backslash, double quote and newline. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** `a="x",b="y"`, without braces, so a histogram can append `le`. Empty for no labels. */
export function formatLabelPairs(names: readonly string[], values: readonly string[]): string {
  let out = '';
  for (let i = 0; i < names.length; i++) {
    if (i > 0) out += ',';
    out += `${names[i]}="${escapeLabelValue(values[i])}"`;
  }
  return out;
}

/** One sample line (with its newline). `pairs` comes from `formatLabelPairs`. */
export function sampleLine(name: string, pairs: string, value: number): string {
  return pairs ? `${name}{${pairs}} ${formatValue(value)}\n` : `${name} ${formatValue(value)}\n`;
}

/** The HELP and TYPE header of a metric family. */
export function familyHeader(name: string, help: string, type: string): string {
  return `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`;
}
