// The review as a report: what was compared, over which traffic, and the verdict. Printed as text for people, as
// JSON for CI jobs (`--format json`), or as the pull-request comment (`--markdown`, review-markdown.ts).
import type { ReviewResult } from './review-core.js';

export interface ReviewReport extends ReviewResult {
  /** `fail` when the change introduces any weakening (exit 1). */
  verdict: 'pass' | 'fail';
  base: string;
  head: string;
  traffic: { source: string; kind: 'store' | 'sample' };
}

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

export function headline(r: ReviewReport): string {
  return r.verdict === 'fail'
    ? `${plural(r.weakening, 'weakening change')} introduced by this policy change`
    : 'no weakening introduced by this policy change';
}

export function jsonReport(r: ReviewReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ')}\n`;
  return line(head) + rows.map(line).join('');
}

export function textReport(r: ReviewReport): string {
  let out = `vigil review: ${r.base} → ${r.head}, over ${plural(r.requests, 'request')} on ${plural(r.routes, 'route')} from ${r.traffic.source}\n`;
  out += `${r.verdict === 'fail' ? 'FAIL' : 'PASS'}: ${headline(r)}.\n`;
  for (const direction of ['weakening', 'strengthening', 'changed'] as const) {
    const rows = r.changes.filter((c) => c.direction === direction);
    if (rows.length === 0) continue;
    out += `\n${direction === 'changed' ? 'Other changes' : direction[0].toUpperCase() + direction.slice(1)}:\n`;
    out += table(['CHANGE', 'ROUTE', 'PART', 'FIELD', 'REQUESTS'], rows.map((c) => [c.kind, c.route, c.part, c.field, String(c.requests)]));
  }
  const left = Object.entries(r.rows_left_out);
  if (left.length) out += `\nRows left out past the report's cap: ${left.map(([k, n]) => `${k} ${n}`).join(', ')}\n`;
  if (r.not_compared.length) {
    out += '\nNot compared (the stored record does not hold the part):\n';
    out += table(['ROUTE', 'PART', 'REASON', 'REQUESTS'], r.not_compared.map((m) => [m.route, m.part, m.reason, String(m.requests)]));
  }
  const e = r.exposures;
  for (const [title, list] of [
    ['Sensitive-looking values head stores in the clear and base masked', e.introduced],
    ['Sensitive-looking values base stored in the clear and head masks', e.fixed],
    ['Pre-existing: sensitive-looking values both store in the clear (not introduced by this change)', e.pre_existing],
  ] as const) {
    if (list.length === 0) continue;
    out += `\n${title}:\n`;
    out += table(['ROUTE', 'PART', 'FIELD', 'DETECTION', 'RECORDS', 'SAMPLE'], list.map((f) => [f.route, f.part, f.field, f.kind, String(f.records), f.sample]));
  }
  if (r.unexercised_rules.length) out += `\nChanged rules that no request exercised: ${r.unexercised_rules.join(', ')}\n`;
  return out;
}
