import type { MonthSpend, PromptVersionChange, SqlValue, Store, TraceWindow, TraceWindowsQuery } from '@vigil/plugin-sdk';
import { latencyQuantile } from './api/version-stats.js';
import { monthOf } from './usage-book.js';

/** Most windows one `traceWindows` call reads. */
export const MAX_TRACE_WINDOWS = 1_500;

/**
 * What alert rules and digests read of the traces, through the `llm` service, so no other plugin reads these tables:
 * windows by project, template, version and model; the month's spend; prompt versions since a time.
 */
export class AlertReads {
  constructor(private readonly store: Store) {}

  /**
   * One grouped query over [to − count·step, to) on the (project, created_at) index; then, when asked, the exact P95
   * of each window with calls (a sort of that window's latencies inside the database, one row back).
   */
  async traceWindows(q: TraceWindowsQuery): Promise<TraceWindow[]> {
    if (!(q.count >= 1 && q.count <= MAX_TRACE_WINDOWS) || !(q.stepMs >= 1)) throw new RangeError(`traceWindows: 1..${MAX_TRACE_WINDOWS} windows of at least 1 ms`);
    const step = Math.floor(q.stepMs);
    const from = q.to - q.count * step;
    const where = ['project_id = ?', 'created_at >= ?', 'created_at < ?'];
    const params: SqlValue[] = [q.project_id, from, q.to];
    if (q.template !== undefined) { where.push('template = ?'); params.push(q.template); }
    if (q.version !== undefined) { where.push('version = ?'); params.push(q.version); }
    if (q.model !== undefined) { where.push('model = ?'); params.push(q.model); }
    // Integer literals, not parameters: a bound number past 32 bits is a REAL to SQLite, and the division would not truncate.
    const rows = await this.store.query<Record<string, number | string | null>>(
      `SELECT (created_at - ${Math.floor(from)}) / ${step} AS slot, COUNT(*) AS requests, SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS errors,
         SUM(cost_usd) AS cost, COUNT(latency_ms) AS timed
       FROM ${this.store.table('traces')} WHERE ${where.join(' AND ')} GROUP BY (created_at - ${Math.floor(from)}) / ${step}`, params);
    const windows: (TraceWindow & { timed: number })[] = Array.from({ length: q.count }, () => ({ requests: 0, errors: 0, cost_usd: 0, p95_latency_ms: null, timed: 0 }));
    for (const r of rows) {
      const w = windows[Math.floor(Number(r.slot))];
      if (!w) continue;
      w.requests = Number(r.requests ?? 0);
      w.errors = Number(r.errors ?? 0);
      w.cost_usd = Number(r.cost ?? 0);
      w.timed = Number(r.timed ?? 0);
    }
    if (q.p95) {
      await Promise.all(windows.map(async (w, i) => {
        if (w.timed === 0) return;
        const wFrom = from + i * step;
        const wParams = [...params];
        wParams[1] = wFrom;
        wParams[2] = wFrom + step;
        w.p95_latency_ms = await latencyQuantile(this.store, where.join(' AND '), wParams, w.timed, 95);
      }));
    }
    return windows.map(({ timed: _timed, ...w }) => w);
  }

  async monthSpend(projectId: string, capUsd: number | null, at: number): Promise<MonthSpend> {
    const [row] = await this.store.query<{ items: number | string; cost_usd: number | string; sampled_out: number | string }>(
      `SELECT items, cost_usd, sampled_out FROM ${this.store.table('usage')} WHERE project_id = ? AND month = ?`, [projectId, monthOf(at)]);
    return { cost_usd: Number(row?.cost_usd ?? 0), items: Number(row?.items ?? 0), sampled_out: Number(row?.sampled_out ?? 0), cap_usd: capUsd };
  }

  async promptVersions(since: number, limit: number): Promise<PromptVersionChange[]> {
    const rows = await this.store.query<{ project_id: string; project: string; template: string; version: number | string; hash: string; created_at: number | string }>(
      `SELECT v.project_id, p.name AS project, v.template, v.version, v.hash, v.created_at
       FROM ${this.store.table('prompt_versions')} v JOIN ${this.store.table('projects')} p ON p.id = v.project_id
       WHERE v.created_at >= ? ORDER BY v.created_at, v.project_id, v.template, v.version LIMIT ?`, [since, Math.min(Math.max(1, limit), 1000)]);
    return rows.map((r) => {
      const version = Number(r.version);
      return { project_id: r.project_id, project: r.project, template: r.template, version, previous_version: version > 1 ? version - 1 : null, hash: r.hash, created_at: Number(r.created_at) };
    });
  }

  async templates(projectId: string): Promise<string[]> {
    const rows = await this.store.query<{ template: string }>(
      `SELECT DISTINCT template FROM ${this.store.table('prompt_versions')} WHERE project_id = ? ORDER BY template`, [projectId]);
    return rows.map((r) => r.template);
  }
}
