import type { Store } from '@vigil/plugin-sdk';
import { replaceInUsageRollup } from '../billing/usage-rollup.js';
import { TRACE_COLUMNS } from '../trace-record.js';
import type { LaneProject } from './lane-types.js';
import type { PreparedTrace } from './prepare-trace.js';

/** Columns a replacement writes: all but the row's identity (id, created_at, project_id). */
const REPLACED = TRACE_COLUMNS.slice(3);

export type Replacement =
  | { outcome: 'replaced'; /** USD the call's cost changed by (new − old, unknown as 0): what the month adds. */ costDelta: number }
  | { outcome: 'unchanged' | 'stale' | 'unstored' };

/**
 * **The one place a stored trace is replaced** (a Langfuse update that came after its generation was stored). Whatever
 * keeps something derived from a stored trace's content (a search index) follows the trace here.
 *
 * A replacement carries the revision of the source state it was built from (the Langfuse entity's, which counts
 * every change of it under the project's lock), and is written only over a row built from an older revision (or
 * from none: rows as first inserted): two processes replacing one trace from two states leave the newer, in
 * either order. One built from the same content changes nothing (a repeated update). The row is read and written
 * under its lock (PostgreSQL `FOR UPDATE`; SQLite's write lock), so the cost delta is exact with any number of
 * replacers. `prepared` is redacted already (TracePreparer): nothing unredacted is written here either.
 */
export class TraceReplacer {
  private readonly traces: string;
  private readonly usageDaily: string;

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.traces = store.table('traces');
    this.usageDaily = store.table('usage_daily');
  }

  /** The stored row's `created_at` (the row's key: a replacement never moves it), or undefined when it is not stored. */
  async createdAt(projectId: string, id: string): Promise<number | undefined> {
    const rows = await this.store.query<{ created_at: number | string }>(`SELECT created_at FROM ${this.traces} WHERE project_id = ? AND id = ?`, [projectId, id]);
    return rows.length ? Number(rows[0].created_at) : undefined;
  }

  async replace(project: LaneProject, prepared: PreparedTrace, revision: number): Promise<Replacement> {
    const json = prepared.row[prepared.row.length - 1] as string;
    return this.store.transaction(async (tx): Promise<Replacement> => {
      const lock = tx.dialect === 'postgres' ? ' FOR UPDATE' : '';
      const rows = await tx.query<{ revision: number | string | null; created_at: number | string; status: string; input_tokens: number | string | null;
        output_tokens: number | string | null; cost_usd: number | string | null; trace: string }>(
        `SELECT revision, created_at, status, input_tokens, output_tokens, cost_usd, trace FROM ${this.traces} WHERE project_id = ? AND id = ?${lock}`,
        [project.id, prepared.item.id]);
      if (!rows.length) return { outcome: 'unstored' };
      const stored = rows[0];
      if (stored.revision !== null && Number(stored.revision) >= revision) return { outcome: 'stale' };
      if (stored.trace === json) return { outcome: 'unchanged' };
      const values = prepared.row.slice(3);
      await tx.run(`UPDATE ${this.traces} SET ${REPLACED.map((c) => `${c} = ?`).join(', ')}, revision = ? WHERE project_id = ? AND id = ?`,
        [...values, revision, project.id, prepared.item.id]);
      // Billing's rollup follows the row: the change is counted on the row's day, as of today's arrivals.
      const col = (name: (typeof TRACE_COLUMNS)[number]) => prepared.row[TRACE_COLUMNS.indexOf(name)] as string | number | null;
      await replaceInUsageRollup(tx, this.usageDaily, project.id, Number(stored.created_at), stored,
        { status: String(col('status')), input_tokens: col('input_tokens'), output_tokens: col('output_tokens'), cost_usd: col('cost_usd') }, this.now());
      const before = stored.cost_usd === null ? 0 : Number(stored.cost_usd);
      return { outcome: 'replaced', costDelta: (prepared.item.cost_usd ?? 0) - before };
    });
  }
}
