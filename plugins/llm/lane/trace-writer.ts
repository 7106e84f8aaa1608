import type { Store, Transaction } from '@vigil/plugin-sdk';
import { addToUsageRollup } from '../billing/usage-rollup.js';
import type { PendingMessages } from '../pending-messages.js';
import { noNul, TRACE_COLUMNS } from '../trace-record.js';
import type { LaneProject, StoredTrace } from './lane-types.js';
import type { DeadItem, PreparedTrace } from './prepare-trace.js';

/** Rows per INSERT statement: 16 columns × 400 rows stays under both backends' parameter limits. */
const ROWS_PER_STATEMENT = 400;

export interface Written {
  /** The traces this call stored: not those stored before (a client's retried batch, same ids). */
  inserted: StoredTrace[];
  /** Items that went to the dead list now (the store refused their row alone). */
  dead: DeadItem[];
}

/**
 * Writes prepared traces, idempotently: a trace whose (project, id) is stored already adds nothing. A batch the store
 * refuses is tried row by row once, so one row the store cannot take (the dead list gets it, with the reason)
 * never holds back the rest; when every row fails, the store itself is the problem and the error is thrown.
 */
export class TraceWriter {
  private readonly traces: string;
  private readonly deadItems: string;
  private readonly usageDaily: string;

  constructor(private readonly store: Store) {
    this.traces = store.table('traces');
    this.deadItems = store.table('dead_items');
    this.usageDaily = store.table('usage_daily');
  }

  async write(project: LaneProject, prepared: readonly PreparedTrace[], dead: DeadItem[], now: number): Promise<Written> {
    try {
      const inserted = await this.store.transaction(async (tx) => {
        const ids = await this.insertRows(tx, prepared);
        await this.insertDead(tx, project, dead, now);
        const fresh = prepared.filter((p) => ids.has(p.item.id));
        await addToUsageRollup(tx, this.usageDaily, project.id, fresh.map((p) => p.row), now);
        return fresh.map((p) => p.ref);
      });
      return { inserted, dead };
    } catch (err) {
      if (prepared.length <= 1) throw err;
      return this.writeOneByOne(project, prepared, dead, err, now);
    }
  }

  private async writeOneByOne(project: LaneProject, prepared: readonly PreparedTrace[], dead: DeadItem[], first: unknown, now: number): Promise<Written> {
    const inserted: StoredTrace[] = [];
    const refused: DeadItem[] = [];
    for (const p of prepared) {
      try {
        const ids = await this.store.transaction(async (tx) => {
          const one = await this.insertRows(tx, [p]);
          if (one.size) await addToUsageRollup(tx, this.usageDaily, project.id, [p.row], now);
          return one;
        });
        if (ids.size) inserted.push(p.ref);
      } catch (err) {
        refused.push({ item: p.item, reason: `the store refused the row: ${(err as Error).message}`, redacted: JSON.parse(p.row[p.row.length - 1] as string) });
      }
    }
    if (refused.length === prepared.length) throw first;
    const all = [...dead, ...refused];
    await this.store.transaction((tx) => this.insertDead(tx, project, all, now));
    return { inserted, dead: all };
  }

  private async insertRows(tx: Transaction, prepared: readonly PreparedTrace[]): Promise<Set<string>> {
    const ids = new Set<string>();
    const columns = TRACE_COLUMNS.join(', ');
    const one = `(${TRACE_COLUMNS.map(() => '?').join(', ')})`;
    for (let i = 0; i < prepared.length; i += ROWS_PER_STATEMENT) {
      const chunk = prepared.slice(i, i + ROWS_PER_STATEMENT);
      // No conflict target: both the (id, created_at) key and the (project_id, id) index make a repeat a no-op.
      const rows = await tx.query<{ id: string }>(
        `INSERT INTO ${this.traces} (${columns}) VALUES ${chunk.map(() => one).join(', ')} ON CONFLICT DO NOTHING RETURNING id`,
        chunk.flatMap((p) => p.row));
      for (const r of rows) ids.add(r.id);
    }
    return ids;
  }

  private async insertDead(tx: Transaction, project: LaneProject, dead: readonly DeadItem[], now: number): Promise<void> {
    if (!dead.length) return;
    await tx.insertMany(this.deadItems, ['id', 'project_id', 'created_at', 'failed_at', 'reason', 'item'],
      dead.map((d) => [d.item.id, project.id, d.item.created_at, now, noNul(d.reason.slice(0, 2000)), d.redacted === null ? null : JSON.stringify(d.redacted)]),
      { onConflict: 'ON CONFLICT DO NOTHING' });
  }
}

/**
 * After the rows are committed: messages from OTLP logs that arrived before their span go into the stored traces.
 * `ids` are the items of the batch that came from OTLP spans, stored now or before: a batch sent again after its answer was lost
 * finds its rows stored already, and the traces it changes now are returned, to be published again as updates.
 * For the ones inserted now, their reference is completed in place (the hooks see them with their messages).
 */
export async function takePending(pending: PendingMessages, project: LaneProject, ids: readonly string[], inserted: StoredTrace[], withJson: boolean): Promise<StoredTrace[]> {
  const updated: StoredTrace[] = [];
  if (!ids.length) return updated;
  const waiting = await pending.waiting(project.id, ids);
  for (const id of waiting) {
    const { trace } = await pending.apply(project.id, id);
    if (!trace) continue;
    const { trace: content, ...ref } = trace;
    const published = inserted.find((t) => t.id === id);
    const filled = (['input', 'output'] as const).every((side) => content[side] !== undefined && content[side] !== null);
    if (!published) { updated.push({ ...ref, ...(withJson ? { json: JSON.stringify(content) } : {}) }); continue; }
    if (filled) delete published.awaiting_messages;
    if (withJson) published.json = JSON.stringify(content);
  }
  return updated;
}
