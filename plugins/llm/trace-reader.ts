import type { PersistedTrace, RecentTracesQuery, SqlValue, Store } from '@vigil/plugin-sdk';

export type TraceRow = {
  id: string; created_at: number | string; project_id: string; model: string; status: 'ok' | 'error'; latency_ms: number | null;
  cost_usd: number | null; template: string | null; version: number | null; trace: string;
};

export const TRACE_READ_COLUMNS = 'id, created_at, project_id, model, status, latency_ms, cost_usd, template, version, trace';
const MAX_RECENT = 10_000;

/** A stored row as other plugins see it. */
export const persisted = (r: TraceRow): PersistedTrace => ({
  id: r.id, created_at: Number(r.created_at), project_id: r.project_id, model: r.model, status: r.status,
  latency_ms: r.latency_ms === null ? null : Number(r.latency_ms), cost_usd: r.cost_usd === null ? null : Number(r.cost_usd),
  template: r.template, version: r.version === null ? null : Number(r.version), trace: JSON.parse(r.trace) as Record<string, unknown>,
});

/** Stored traces as the `llm` service hands them to other plugins (the evaluators read the traces they score). */
export class TraceReader {
  private readonly traces: string;

  constructor(private readonly store: Store) {
    this.traces = store.table('traces');
  }

  async trace(projectId: string, traceId: string): Promise<PersistedTrace | undefined> {
    const rows = await this.store.query<TraceRow>(`SELECT ${TRACE_READ_COLUMNS} FROM ${this.traces} WHERE project_id = ? AND id = ?`, [projectId, traceId]);
    return rows[0] ? persisted(rows[0]) : undefined;
  }

  async recent(projectId: string, query: RecentTracesQuery): Promise<PersistedTrace[]> {
    const where = ['project_id = ?'];
    const params: SqlValue[] = [projectId];
    if (query.template !== undefined) { where.push('template = ?'); params.push(query.template); }
    if (query.version !== undefined) { where.push('version = ?'); params.push(query.version); }
    const limit = Math.max(0, Math.min(MAX_RECENT, Math.floor(query.limit)));
    const columns = query.withoutContent ? TRACE_READ_COLUMNS.replace(', trace', ", '{}' AS trace") : TRACE_READ_COLUMNS;
    const rows = await this.store.query<TraceRow>(
      `SELECT ${columns} FROM ${this.traces} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`, [...params, limit]);
    return rows.map(persisted);
  }
}
