// The metric names a PromQL expression reads, for checking dashboards and alert rules against a real /metrics.

/** Words of PromQL that are not metric names when they stand alone (operators and modifiers). */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'atan2', 'inf', 'nan']);

/**
 * The metric names in `expr`: every identifier that is not a function or aggregation (followed by `(`, or by a
 * by/without list and `(`), a keyword, a
 * label name (inside `{…}` or a by/without/on/ignoring/group_* list), part of a string, a duration or a number, or a
 * Grafana variable (`$__rate_interval`, `$instance`). Names are returned as written (`…_bucket` included).
 */
export function metricNames(expr: string): string[] {
  let s = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/\{[^}]*\}/g, '{}');
  s = s.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/gi, '$1()');
  const names = new Set<string>();
  for (const m of s.matchAll(/(?<![\w:.$])[a-zA-Z_:][\w:]*(?![\w:])/g)) {
    const word = m[0];
    const after = s.slice(m.index + word.length);
    // A call, or an aggregation with its grouping first (`sum by (job) (…)`).
    if (/^\s*(?:(?:by|without)\s*\(\)\s*)?\(/i.test(after)) continue;
    if (KEYWORDS.has(word.toLowerCase())) continue;
    names.add(word);
  }
  return [...names];
}

/** Each `name{matchers}` selector of `expr` with the label names its matchers use. */
export function selectorLabels(expr: string): { name: string; labels: string[] }[] {
  const s = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const out: { name: string; labels: string[] }[] = [];
  for (const m of s.matchAll(/(?<![\w:.$])([a-zA-Z_:][\w:]*)\s*\{([^}]*)\}/g)) {
    const labels = [...m[2].matchAll(/([a-zA-Z_][\w]*)\s*(?:=~|!~|!=|=)/g)].map((l) => l[1]);
    out.push({ name: m[1], labels });
  }
  return out;
}

/**
 * The family a series name belongs to, given the families of a scrape (name → TYPE): a histogram's or a summary's
 * `_bucket`, `_sum` and `_count` series belong to the base name. Undefined when the scrape has no such family.
 */
export function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  if (m && (types.get(m[1]) === 'histogram' || (types.get(m[1]) === 'summary' && m[2] !== 'bucket'))) return m[1];
  return undefined;
}
