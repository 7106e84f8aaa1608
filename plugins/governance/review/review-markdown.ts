// `vigil review --markdown`: the pull-request comment. It starts with a marker line, so a workflow finds its own
// comment and updates it instead of adding one per push (examples/ci/). Everything taken from traffic or policy
// files goes inside code spans, escaped for tables: a JSON key cannot turn into a link, a mention or HTML.
import type { Finding } from '../scan/scan-core.js';
import type { ChangeRow } from './review-core.js';
import { CHANGE_KINDS, type ChangeKind } from './review-kinds.js';
import { headline, type ReviewReport } from './review-report.js';

/** The comment's first line: how a workflow recognises the comment it posted before. */
export const COMMENT_MARKER = '<!-- vigil-review -->';

// GitHub refuses comments over 65,536 characters; tables are cut well before, with a count of what was left out.
const MAX_TABLE_ROWS = 50;
const MAX_CELL = 160;

/** `text` as an inline code span that is safe in a table cell. */
export function code(text: string): string {
  let t = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  if (t.length > MAX_CELL) t = `${t.slice(0, MAX_CELL - 1)}…`;
  t = t.replace(/\|/g, '\\|');
  const ticks = Math.max(0, ...(t.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(ticks + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

const n = (x: number) => x.toLocaleString('en');
const rowsOf = (x: number) => `${n(x)} row${x === 1 ? '' : 's'}`;
const valuesOf = (x: number) => `${n(x)} sensitive-looking value${x === 1 ? '' : 's'}`;

function table(head: string[], rows: string[][], total: number): string {
  let out = `| ${head.join(' | ')} |\n|${head.map((_, i) => (i === head.length - 1 ? '---:' : '---')).join('|')}|\n`;
  out += rows.slice(0, MAX_TABLE_ROWS).map((r) => `| ${r.join(' | ')} |\n`).join('');
  if (total > MAX_TABLE_ROWS) out += `\n…and ${n(total - MAX_TABLE_ROWS)} more (\`--format json\` lists them all).\n`;
  return out;
}

function changeTables(changes: ChangeRow[], kinds: ChangeKind[]): string {
  let out = '';
  for (const kind of kinds) {
    const rows = changes.filter((c) => c.kind === kind);
    if (rows.length === 0) continue;
    out += `\n#### ${CHANGE_KINDS[kind].title}\n\n`;
    out += table(['Route', 'Part', 'Field', 'Requests'], rows.map((c) => [code(c.route), c.part, code(c.field), n(c.requests)]), rows.length);
  }
  return out;
}

function findingsTable(list: Finding[]): string {
  return table(['Route', 'Part', 'Field', 'Detection', 'Sample', 'Records'],
    list.map((f) => [code(f.route), f.part, code(f.field), f.kind, code(f.sample), n(f.records)]), list.length);
}

function details(summary: string, body: string): string {
  return `\n<details><summary>${summary}</summary>\n\n${body.trim()}\n\n</details>\n`;
}

const HOW = `Each request was decided by both policies (the gateway's own \`decide\`), and the two decisions compared for what
it holds: its query parameter names, header names and body JSON paths, and its status. Values are not compared, so a
value masked when the record was stored does not hide a change. A restriction, a detector, a label, sampling or a WASM
policy counts every request its decision changes for. Sensitive-looking values are \`vigil scan\`'s detections in the
request as each policy would store it.`;

export function markdownReport(r: ReviewReport): string {
  const kindsOf = (direction: string) => (Object.keys(CHANGE_KINDS) as ChangeKind[]).filter((k) => CHANGE_KINDS[k].direction === direction);
  let out = `${COMMENT_MARKER}\n### ${r.verdict === 'fail' ? '❌' : '✅'} Vigil policy review: ${headline(r)}\n\n`;
  out += `Base ${code(r.base)} → head ${code(r.head)}, over **${n(r.requests)}** requests on **${n(r.routes)}** routes `
    + `from ${r.traffic.kind === 'store' ? 'the records stored by' : 'the sample'} ${code(r.traffic.source)}.\n`;
  if (r.kinds.length > 0) {
    out += '\n';
    out += table(['Change', 'Direction', 'Routes', 'Requests'],
      r.kinds.map((k) => [CHANGE_KINDS[k.kind].title, k.direction === 'weakening' ? '⚠️ weakening' : k.direction, n(k.routes), n(k.requests)]), r.kinds.length);
  } else {
    out += '\nThe two policies decide every request in this traffic alike.\n';
  }
  const weakening = changeTables(r.changes, kindsOf('weakening'));
  if (weakening) out += `\n### Weakening\n${weakening}`;
  if (r.exposures.introduced.length) {
    out += `\n#### Sensitive-looking values base masked and head would store in the clear\n\n${findingsTable(r.exposures.introduced)}`;
  }
  const strengthening = changeTables(r.changes, kindsOf('strengthening'));
  if (strengthening) out += details(`Strengthening (${rowsOf(r.changes.filter((c) => c.direction === 'strengthening').length)})`, strengthening);
  const changed = changeTables(r.changes, kindsOf('changed'));
  if (changed) out += details('Other changes', changed);
  if (r.exposures.fixed.length) out += details(`Fixed: ${valuesOf(r.exposures.fixed.length)} base stored in the clear and head masks`, findingsTable(r.exposures.fixed));
  if (r.exposures.pre_existing.length) {
    out += details(`Pre-existing: ${valuesOf(r.exposures.pre_existing.length)} both policies store in the clear (not introduced by this change; they do not fail the review)`,
      findingsTable(r.exposures.pre_existing));
  }
  if (r.not_compared.length) {
    const total = r.not_compared.reduce((s, m) => s + m.requests, 0);
    out += details(`Not compared: ${n(total)} request parts the stored records do not hold`,
      table(['Route', 'Part', 'Reason', 'Requests'], r.not_compared.map((m) => [code(m.route), m.part, m.reason, n(m.requests)]), r.not_compared.length));
  }
  if (r.unexercised_rules.length) {
    out += details(`Changed rules no request exercised (${n(r.unexercised_rules.length)})`,
      `The traffic says nothing about these; add requests they match to the sample:\n\n${r.unexercised_rules.map((x) => `- ${code(x)}`).join('\n')}`);
  }
  out += details('How this was compared', HOW.replace(/\n/g, ' '));
  return out;
}
