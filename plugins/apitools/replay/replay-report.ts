// The replay's tally per route (route template: `GET /users/{id}`) and its three renderings: a text table, JSON for
// CI, and Markdown for a pull-request comment.
import { routeTemplate } from '../../../gateway/fields/api-fields.js';
import type { Comparison } from './compare.js';
import { describeShapeChange } from './json-shape.js';
import { SKIP_REASONS, type SkipReason } from './replay-plan.js';

/** What each skip reason means, for the report's legend. */
export const SKIP_MEANINGS: Record<SkipReason, string> = {
  unsafe_method: 'method not in --methods',
  upstream_error: 'the upstream never answered whole (the record has an error): nothing to compare',
  truncated: 'the request body was cut at capture (limit or wire): only a prefix is stored',
  redacted_value: 'the path, a query parameter, a header or the body holds [REDACTED]',
  restricted_headers: 'no request headers stored (restricted, or only metadata kept)',
  dropped_body: 'the request body was not kept (dropped_reason, or sampled out)',
  restricted_body: 'the request body was not captured: the policy restricts it',
};

/** Shape paths kept per example: enough to see what changed, bounded for a document with hundreds of new keys. */
const MAX_SHAPE_LINES = 20;

export interface ChangeExample {
  record: string;
  method: string;
  path: string;
  stored_status: number;
  /** The target's status; null for an error (no answer). */
  status: number | null;
  /** The shape differences, for a `shape` change. */
  shape?: string[];
  /** What went wrong, for an error. */
  detail?: string;
}

export interface ChangeGroup {
  /** `status 200 → 404`, `shape`, `timeout`, `connection_error`, `invalid_request`. */
  change: string;
  kind: 'status' | 'shape' | 'timeout' | 'connection_error' | 'invalid_request';
  count: number;
  example: ChangeExample;
}

export interface RouteRow {
  route: string;
  replayed: number;
  same: number;
  changed: number;
  errors: number;
  skipped: number;
  skipped_by_reason: Partial<Record<SkipReason, number>>;
  changes: ChangeGroup[];
}

export interface ReplayReport {
  target: string;
  records: number;
  replayed: number;
  same: number;
  changed: number;
  errors: number;
  /** Same-status answers whose body shape was compared (with --diff shape). */
  shape_checked: number;
  skipped: Record<SkipReason, number>;
  diff: 'status' | 'shape';
  max_changed: string;
  /** Whether the command exits 1, and why. */
  failed: boolean;
  failure: string | null;
  routes: RouteRow[];
}

export class ReplayTally {
  private readonly rows = new Map<string, RouteRow>();
  records = 0;
  replayed = 0;
  same = 0;
  changed = 0;
  errors = 0;
  shapeChecked = 0;
  readonly skipped = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>;

  private row(method: string, path: string): RouteRow {
    const route = routeTemplate(method || 'GET', path || '/');
    let row = this.rows.get(route);
    if (!row) this.rows.set(route, (row = { route, replayed: 0, same: 0, changed: 0, errors: 0, skipped: 0, skipped_by_reason: {}, changes: [] }));
    return row;
  }

  skip(method: string, path: string, reason: SkipReason): void {
    this.records++;
    this.skipped[reason]++;
    const row = this.row(method, path);
    row.skipped++;
    row.skipped_by_reason[reason] = (row.skipped_by_reason[reason] ?? 0) + 1;
  }

  add(id: string, method: string, path: string, storedStatus: number, result: Comparison): void {
    this.records++;
    this.replayed++;
    const row = this.row(method, path);
    row.replayed++;
    if (result.outcome === 'same') {
      this.same++;
      row.same++;
      if (result.shapeChecked) this.shapeChecked++;
      return;
    }
    const example: ChangeExample = { record: id, method, path, stored_status: storedStatus, status: null };
    let change: string;
    if (result.outcome === 'error') {
      this.errors++;
      row.errors++;
      change = result.kind;
      example.detail = result.detail;
    } else {
      this.changed++;
      row.changed++;
      example.status = result.status;
      if (result.kind === 'status') change = `status ${result.storedStatus} → ${result.status}`;
      else {
        change = 'shape';
        example.shape = result.shape.slice(0, MAX_SHAPE_LINES).map(describeShapeChange);
        if (result.shape.length > MAX_SHAPE_LINES) example.shape.push(`… ${result.shape.length - MAX_SHAPE_LINES} more`);
      }
    }
    const group = row.changes.find((g) => g.change === change);
    if (group) group.count++;
    else row.changes.push({ change, kind: result.kind, count: 1, example });
  }

  routes(): RouteRow[] {
    return [...this.rows.values()].sort((a, b) => (a.route < b.route ? -1 : a.route > b.route ? 1 : 0));
  }
}

export function jsonReport(report: ReplayReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function table(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(headers), ...rows.map(line)];
}

function exampleLine(g: ChangeGroup): string {
  const e = g.example;
  const outcome = e.status === null ? `${e.stored_status} → ${g.kind} (${e.detail ?? ''})` : `${e.stored_status} → ${e.status}`;
  return `record ${e.record}: ${e.method} ${e.path}, ${outcome}`;
}

const COLUMNS = ['ROUTE', 'REPLAYED', 'SAME', 'CHANGED', 'ERRORS', 'SKIPPED'];
const cells = (r: RouteRow) => [r.route, String(r.replayed), String(r.same), String(r.changed), String(r.errors), String(r.skipped)];

export function textReport(report: ReplayReport): string {
  const out = [
    `vigil replay against ${report.target} (diff: ${report.diff}): ${report.records} records read`,
    `replayed ${report.replayed}, same ${report.same}, changed ${report.changed}, errors ${report.errors}, skipped ${sum(report.skipped)}`
      + (report.diff === 'shape' ? `; shapes compared: ${report.shape_checked}` : ''),
    '',
  ];
  if (report.routes.length === 0) out.push('No stored records to replay.');
  else out.push(...table(COLUMNS, report.routes.map(cells)));
  const groups = report.routes.flatMap((r) => r.changes.map((g) => ({ route: r.route, g })));
  if (groups.length > 0) {
    out.push('', 'Changes and errors (one example each):');
    for (const { route, g } of groups) {
      out.push(`  ${route}  ${g.change}  ×${g.count}`, `    ${exampleLine(g)}`);
      for (const s of g.example.shape ?? []) out.push(`      ${s}`);
    }
  }
  const skipped = SKIP_REASONS.filter((r) => report.skipped[r] > 0);
  if (skipped.length > 0) {
    out.push('', 'Skipped:');
    out.push(...table(['REASON', 'RECORDS', 'MEANING'], skipped.map((r) => [r, String(report.skipped[r]), SKIP_MEANINGS[r]])).map((l) => `  ${l}`));
  }
  out.push('', report.failed ? `FAILED: ${report.failure}` : `OK: ${report.changed} changed, --max-changed ${report.max_changed}`);
  return `${out.join('\n')}\n`;
}

/** Markdown for a pull-request or CI summary: `|` and backticks in routes and paths are escaped. */
export function markdownReport(report: ReplayReport): string {
  const esc = (s: string) => s.replace(/[|\\`*_[\]<>]/g, (c) => `\\${c}`);
  const out = [
    `### vigil replay: ${report.failed ? '❌ ' + esc(report.failure ?? '') : `✅ ${report.changed} changed (max ${esc(report.max_changed)})`}`,
    '',
    `Target ${esc(report.target)}, diff ${report.diff}: ${report.records} records read, ${report.replayed} replayed, ${report.same} same, `
      + `${report.changed} changed, ${report.errors} errors, ${sum(report.skipped)} skipped.`,
    '',
  ];
  if (report.routes.length > 0) {
    out.push(`| ${COLUMNS.map((c) => c.toLowerCase()).join(' | ')} |`, `|${COLUMNS.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
    for (const r of report.routes) out.push(`| ${cells(r).map(esc).join(' | ')} |`);
  }
  const groups = report.routes.flatMap((r) => r.changes.map((g) => ({ route: r.route, g })));
  if (groups.length > 0) {
    out.push('', '#### Changes and errors', '');
    for (const { route, g } of groups) {
      out.push(`- **${esc(route)}**, ${esc(g.change)} ×${g.count}: ${esc(exampleLine(g))}`);
      for (const s of g.example.shape ?? []) out.push(`  - ${esc(s)}`);
    }
  }
  const skipped = SKIP_REASONS.filter((r) => report.skipped[r] > 0);
  if (skipped.length > 0) {
    out.push('', '#### Skipped', '', '| reason | records | meaning |', '|---|---:|---|');
    for (const r of skipped) out.push(`| \`${r}\` | ${report.skipped[r]} | ${esc(SKIP_MEANINGS[r])} |`);
  }
  return `${out.join('\n')}\n`;
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
