import { uuidv7, type EvalResult, type EvalStatus, type EvalResultsQuery, type EvalScoreScope, type EvalScoreSummary, type SqlValue, type Store } from '@vigil/plugin-sdk';
import type { EvalDefinition, EvalOutcome } from './types.js';

/** A result with what it belongs to, as stored. */
export interface StoredResult extends EvalOutcome {
  id: string;
  project_id: string;
  definition_id: string;
  trace_id: string;
  trace_created_at: number;
  template: string | null;
  version: number | null;
  latency_ms: number;
  created_at: number;
}

type ResultRow = {
  id: string; definition_id: string; trace_id: string; score: number | null; status: EvalStatus; reason: string | null;
  method: string; model: string | null; tokens_in: number; tokens_out: number; cost_usd: number | null; latency_ms: number;
  details: string | null; created_at: number | string;
};

/** A definition's results so far, as the dashboard lists them. */
export interface DefinitionStats {
  results: number;
  failed: number;
  skipped: number;
  avg_score: number | null;
  method: string;
  cost_usd: number;
  last_at: number | null;
}

type GroupRow = { definition_id: string; method: string; status: string; n: number; total: number | null; tokens_in: number | null; tokens_out: number | null; usd: number | null };

/** Better methods first: a definition's scores count in averages under the method with most results, ties to the better. */
const METHOD_RANK = ['llm_judge', 'custom_function', 'openai', 'glove-sif', 'lexical'];
const rank = (m: string): number => { const i = METHOD_RANK.indexOf(m); return i === -1 ? METHOD_RANK.length : i; };

const num = (v: unknown): number => Number(v ?? 0);
/** Trace ids per query of `summaryByTraces`: under both backends' parameter limits. */
const TRACES_PER_READ = 500;

/** A stored result as the public API shows it. */
export function shownResult(r: ResultRow): EvalResult & { model: string | null; details: Record<string, unknown> | null } {
  return {
    id: r.id, eval_definition_id: r.definition_id, trace_id: r.trace_id, score: r.score === null ? null : Number(r.score), status: r.status,
    reason: r.reason, method: r.method, model: r.model,
    cost: { tokens_in: num(r.tokens_in), tokens_out: num(r.tokens_out), usd: r.cost_usd === null ? null : Number(r.cost_usd) },
    latency_ms: Number(r.latency_ms), created_at: new Date(Number(r.created_at)).toISOString(),
    details: r.details === null ? null : JSON.parse(r.details) as Record<string, unknown>,
  };
}

type SummaryRow = GroupRow & { name: string | null; type: string | null };

/**
 * Averages of the ok results in the groups of one scope; failed and skipped results are counted apart, never averaged. A definition whose results came from several methods (an
 * embedder that changed tier) is counted under one: the method with most ok results, ties to the better method; the
 * others are listed apart (`other_methods`), never averaged in.
 */
function summarise(groups: readonly SummaryRow[]): EvalScoreSummary {
  const cost = { tokens_in: 0, tokens_out: 0, usd: 0 };
  const byDef = new Map<string, { name: string; type: string; failed: number; skipped: number; methods: Map<string, { n: number; total: number }> }>();
  for (const g of groups) {
    cost.tokens_in += num(g.tokens_in);
    cost.tokens_out += num(g.tokens_out);
    cost.usd += num(g.usd);
    let d = byDef.get(g.definition_id);
    if (!d) byDef.set(g.definition_id, d = { name: g.name ?? g.definition_id, type: g.type ?? 'deleted', failed: 0, skipped: 0, methods: new Map() });
    if (g.status === 'ok') d.methods.set(g.method, { n: num(g.n), total: num(g.total) });
    else if (g.status === 'skipped') d.skipped += num(g.n);
    else d.failed += num(g.n);
  }
  let samples = 0;
  let total = 0;
  let failed = 0;
  let skipped = 0;
  const by_definition: EvalScoreSummary['by_definition'] = [];
  for (const [id, d] of [...byDef].sort((a, b) => a[0].localeCompare(b[0]))) {
    failed += d.failed;
    skipped += d.skipped;
    const methods = [...d.methods].sort((a, b) => b[1].n - a[1].n || rank(a[0]) - rank(b[0]));
    const [method, chosen] = methods[0] ?? [null, { n: 0, total: 0 }];
    samples += chosen.n;
    total += chosen.total;
    by_definition.push({
      eval_definition_id: id, name: d.name, type: d.type, method: method ?? 'none', avg_score: chosen.n ? chosen.total / chosen.n : null,
      samples: chosen.n, failed: d.failed, skipped: d.skipped, other_methods: methods.slice(1).map(([m, s]) => ({ method: m, avg_score: s.total / s.n, samples: s.n })),
    });
  }
  cost.usd = Math.round(cost.usd * 1e12) / 1e12;
  return { avg_score: samples ? total / samples : null, samples, failed, skipped, cost, by_definition };
}

/**
 * Eval results: one per (definition, trace), the latest. Reads answer the public API (`/api/v1/eval-results`) and the
 * scores in stats, prompt versions and the gate, through the `llm` service's score source.
 */
export class ResultStore {
  private readonly table: string;
  private readonly definitions: string;

  constructor(private readonly store: Store) {
    this.table = store.table('results');
    this.definitions = store.table('definitions');
  }

  /**
   * Stores a result, replacing an earlier one of the same definition and trace (a re-run, or a retried job); nothing
   * (undefined) when the definition is gone: a job that read it before a DELETE must not leave a result behind.
   */
  async write(r: Omit<StoredResult, 'id'>): Promise<StoredResult | undefined> {
    const id = uuidv7(r.created_at);
    const details = r.details === undefined ? null : JSON.stringify(r.details);
    const { changes } = await this.store.run(
      `INSERT INTO ${this.table} (id, project_id, definition_id, trace_id, trace_created_at, template, version, score, status, reason, method, model,
         tokens_in, tokens_out, cost_usd, latency_ms, details, created_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
       WHERE EXISTS (SELECT 1 FROM ${this.definitions} WHERE project_id = ? AND id = ?)
       ON CONFLICT (project_id, definition_id, trace_id) DO UPDATE SET id = excluded.id, score = excluded.score, status = excluded.status,
         reason = excluded.reason, method = excluded.method, model = excluded.model, tokens_in = excluded.tokens_in, tokens_out = excluded.tokens_out,
         cost_usd = excluded.cost_usd, latency_ms = excluded.latency_ms, details = excluded.details, created_at = excluded.created_at`,
      [id, r.project_id, r.definition_id, r.trace_id, r.trace_created_at, r.template, r.version, r.score, r.status, r.reason?.replace(/\u0000/g, '\uFFFD') ?? null,
        r.method, r.model, r.tokens_in, r.tokens_out, r.usd, r.latency_ms, details, r.created_at, r.project_id, r.definition_id]);
    return changes > 0 ? { ...r, id } : undefined;
  }

  async list(projectId: string, q: EvalResultsQuery): Promise<ReturnType<typeof shownResult>[]> {
    const where = ['project_id = ?'];
    const params: SqlValue[] = [projectId];
    if (q.eval_definition_id !== undefined) { where.push('definition_id = ?'); params.push(q.eval_definition_id); }
    if (q.trace_id !== undefined) { where.push('trace_id = ?'); params.push(q.trace_id); }
    if (q.status !== undefined) { where.push('status = ?'); params.push(q.status); }
    if (q.since !== undefined) { where.push('created_at >= ?'); params.push(q.since); }
    const rows = await this.store.query<ResultRow>(
      `SELECT id, definition_id, trace_id, score, status, reason, method, model, tokens_in, tokens_out, cost_usd, latency_ms, details, created_at
       FROM ${this.table} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [...params, q.limit, q.offset]);
    return rows.map(shownResult);
  }

  private scopeWhere(scope: EvalScoreScope): { sql: string; params: SqlValue[] } {
    const where = ['r.project_id = ?'];
    const params: SqlValue[] = [scope.project_id];
    if (scope.template !== undefined) { where.push('r.template = ?'); params.push(scope.template); }
    if (scope.version !== undefined) { where.push('r.version = ?'); params.push(scope.version); }
    if (scope.from !== undefined) { where.push('r.trace_created_at >= ?'); params.push(scope.from); }
    if (scope.to !== undefined) { where.push('r.trace_created_at < ?'); params.push(scope.to); }
    if (scope.eval_definition_id !== undefined) { where.push('r.definition_id = ?'); params.push(scope.eval_definition_id); }
    return { sql: where.join(' AND '), params };
  }

  /**
   * Averages of the ok results in scope. A definition whose results came from several methods (an embedder that
   * changed tier) is counted under one: the method with most ok results, ties to the better method; the others are
   * listed apart (`other_methods`), never averaged in.
   */
  async summary(scope: EvalScoreScope): Promise<EvalScoreSummary> {
    const w = this.scopeWhere(scope);
    return summarise(await this.store.query<SummaryRow>(
      `SELECT r.definition_id, r.method, r.status, COUNT(*) AS n, SUM(r.score) AS total, SUM(r.tokens_in) AS tokens_in,
         SUM(r.tokens_out) AS tokens_out, SUM(r.cost_usd) AS usd, MAX(d.name) AS name, MAX(d.type) AS type
       FROM ${this.table} r LEFT JOIN ${this.definitions} d ON d.project_id = r.project_id AND d.id = r.definition_id
       WHERE ${w.sql} GROUP BY r.definition_id, r.method, r.status`, w.params));
  }

  /** `summary` of each of `versions` of one template, in one query grouped by version as well. */
  async summaryByVersion(scope: EvalScoreScope & { template: string; versions: readonly number[] }): Promise<Map<number, EvalScoreSummary>> {
    const out = new Map<number, EvalScoreSummary>();
    if (!scope.versions.length) return out;
    const w = this.scopeWhere({ ...scope, version: undefined });
    const rows = await this.store.query<SummaryRow & { version: number | string }>(
      `SELECT r.version, r.definition_id, r.method, r.status, COUNT(*) AS n, SUM(r.score) AS total, SUM(r.tokens_in) AS tokens_in,
         SUM(r.tokens_out) AS tokens_out, SUM(r.cost_usd) AS usd, MAX(d.name) AS name, MAX(d.type) AS type
       FROM ${this.table} r LEFT JOIN ${this.definitions} d ON d.project_id = r.project_id AND d.id = r.definition_id
       WHERE ${w.sql} AND r.version IN (${scope.versions.map(() => '?').join(', ')}) GROUP BY r.version, r.definition_id, r.method, r.status`,
      [...w.params, ...scope.versions]);
    const byVersion = new Map<number, SummaryRow[]>(scope.versions.map((v) => [v, []]));
    for (const r of rows) byVersion.get(Number(r.version))?.push(r);
    for (const [version, groups] of byVersion) out.set(version, summarise(groups));
    return out;
  }

  /** The results' cost (USD) per project, for traces made in [from, to): one grouped read on the (project, trace time) index. */
  async costByProject(projectIds: readonly string[], from: number, to: number): Promise<Map<string, number>> {
    const rows = await this.store.query<{ project_id: string; usd: number | string | null }>(
      `SELECT project_id, SUM(cost_usd) AS usd FROM ${this.table}
       WHERE project_id IN (${projectIds.map(() => '?').join(', ')}) AND trace_created_at >= ? AND trace_created_at < ? GROUP BY project_id`,
      [...projectIds, from, to]);
    return new Map(rows.map((r) => [r.project_id, num(r.usd)]));
  }

  /**
   * `summary` of each group of traces by id, in queries of TRACES_PER_READ ids grouped by trace; rows of one group
   * are added up by (definition, method, status) before they are summarised, as one scope's query would have them.
   */
  async summaryByTraces(projectId: string, groups: ReadonlyMap<string, readonly string[]>): Promise<Map<string, EvalScoreSummary>> {
    const groupsOf = new Map<string, string[]>();
    for (const [group, ids] of groups) for (const id of ids) (groupsOf.get(id) ?? groupsOf.set(id, []).get(id)!).push(group);
    const ids = [...groupsOf.keys()];
    const sums = new Map<string, Map<string, SummaryRow>>([...groups.keys()].map((g) => [g, new Map()]));
    for (let i = 0; i < ids.length; i += TRACES_PER_READ) {
      const chunk = ids.slice(i, i + TRACES_PER_READ);
      const rows = await this.store.query<SummaryRow & { trace_id: string }>(
        `SELECT r.trace_id, r.definition_id, r.method, r.status, COUNT(*) AS n, SUM(r.score) AS total, SUM(r.tokens_in) AS tokens_in,
           SUM(r.tokens_out) AS tokens_out, SUM(r.cost_usd) AS usd, MAX(d.name) AS name, MAX(d.type) AS type
         FROM ${this.table} r LEFT JOIN ${this.definitions} d ON d.project_id = r.project_id AND d.id = r.definition_id
         WHERE r.project_id = ? AND r.trace_id IN (${chunk.map(() => '?').join(', ')}) GROUP BY r.trace_id, r.definition_id, r.method, r.status`,
        [projectId, ...chunk]);
      for (const r of rows) {
        for (const group of groupsOf.get(r.trace_id) ?? []) {
          const byKey = sums.get(group)!;
          const key = `${r.definition_id}\u0000${r.method}\u0000${r.status}`;
          const sum = byKey.get(key);
          if (!sum) { byKey.set(key, { ...r, n: num(r.n), total: r.total === null ? null : num(r.total) }); continue; }
          sum.n = num(sum.n) + num(r.n);
          sum.total = num(sum.total) + num(r.total);
          sum.tokens_in = num(sum.tokens_in) + num(r.tokens_in);
          sum.tokens_out = num(sum.tokens_out) + num(r.tokens_out);
          sum.usd = num(sum.usd) + num(r.usd);
        }
      }
    }
    return new Map([...sums].map(([group, byKey]) => [group, summarise([...byKey.values()])]));
  }

  /** Average score per slot of `stepMs` from `scope.from` by the traces' time, counting each definition under its summary method. */
  async series(scope: EvalScoreScope & { from: number; to: number }, stepMs: number): Promise<Map<number, number>> {
    const summary = await this.summary(scope);
    const chosen = new Map(summary.by_definition.map((d) => [d.eval_definition_id, d.method]));
    const out = new Map<number, number>();
    if (!chosen.size) return out;
    const w = this.scopeWhere(scope);
    const step = Math.max(1, Math.floor(stepMs));
    const from = Math.floor(scope.from);
    // Integer literals (computed here, never from a request): a bound number past 32 bits would be a REAL to SQLite.
    const rows = await this.store.query<{ slot: number; definition_id: string; method: string; n: number; total: number }>(
      `SELECT (r.trace_created_at - ${from}) / ${step} AS slot, r.definition_id, r.method, COUNT(*) AS n, SUM(r.score) AS total
       FROM ${this.table} r WHERE ${w.sql} AND r.status = 'ok' GROUP BY (r.trace_created_at - ${from}) / ${step}, r.definition_id, r.method`, w.params);
    const sums = new Map<number, { n: number; total: number }>();
    for (const r of rows) {
      if (chosen.get(r.definition_id) !== r.method) continue;
      const slot = Math.floor(Number(r.slot));
      const s = sums.get(slot) ?? { n: 0, total: 0 };
      s.n += num(r.n);
      s.total += num(r.total);
      sums.set(slot, s);
    }
    for (const [slot, s] of sums) out.set(slot, s.total / s.n);
    return out;
  }

  /** Per definition of a project: results, failures, skips, average (as `summary` counts it), cost so far, last result. */
  async perDefinition(projectId: string): Promise<Map<string, DefinitionStats>> {
    const summary = await this.summary({ project_id: projectId });
    const rows = await this.store.query<{ definition_id: string; n: number; usd: number | null; last_at: number | null }>(
      `SELECT definition_id, COUNT(*) AS n, SUM(cost_usd) AS usd, MAX(created_at) AS last_at FROM ${this.table} WHERE project_id = ? GROUP BY definition_id`, [projectId]);
    const out = new Map<string, DefinitionStats>();
    for (const r of rows) {
      const s = summary.by_definition.find((d) => d.eval_definition_id === r.definition_id);
      out.set(r.definition_id, {
        results: num(r.n), failed: s?.failed ?? 0, skipped: s?.skipped ?? 0, avg_score: s?.avg_score ?? null, method: s?.method ?? 'none',
        cost_usd: Math.round(num(r.usd) * 1e12) / 1e12, last_at: r.last_at === null ? null : Number(r.last_at),
      });
    }
    return out;
  }

  async deleteForDefinition(definition: Pick<EvalDefinition, 'project_id' | 'id'>): Promise<number> {
    return (await this.store.run(`DELETE FROM ${this.table} WHERE project_id = ? AND definition_id = ?`, [definition.project_id, definition.id])).changes;
  }
}
