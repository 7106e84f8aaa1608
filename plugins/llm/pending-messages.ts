import type { PersistedTrace, Store } from '@vigil/plugin-sdk';
import { persisted, TRACE_READ_COLUMNS, type TraceRow } from './trace-reader.js';

/** Redacted messages waiting this long for their span are deleted by retention: exporters flush within seconds. */
export const PENDING_TTL_MS = 86_400_000;
/** Ids per `IN (…)` list, under both backends' parameter limits. */
const IDS_PER_QUERY = 500;

/** The redacted message lists of one span item, as JSON-ready values; a side is undefined when no log carried it. */
export interface MessageParts {
  input?: unknown;
  output?: unknown;
}

const empty = (v: unknown): boolean => v === undefined || v === null;

/**
 * Where messages from OTLP logs meet their span's stored trace (`llm_pending_messages`, then `llm_traces`).
 *
 * Spans and logs are exported independently, in any order, possibly to different processes on one PostgreSQL. The
 * rule that makes the outcome order-independent: each side first makes its own write durable, then looks for the
 * other's. The messages job commits its parts to the pending table (`stash`), then applies them to the trace if it
 * is stored; the persist stage commits the trace row, then applies any pending parts of its items. Whichever of
 * the two commits second sees the other's row, so the messages are never left behind; both may see it, so
 * `apply` is idempotent: it claims the pending row (DELETE … RETURNING) and fills only the sides of the trace that
 * are still empty, under a lock on the trace row (PostgreSQL) or SQLite's write lock. A side the span carried
 * itself is never overwritten, and a side the logs gave twice is filled once.
 * Everything here is already redacted: nothing unredacted is stored in either table.
 */
export class PendingMessages {
  private readonly pending: string;
  private readonly traces: string;

  constructor(private readonly store: Store) {
    this.pending = store.table('pending_messages');
    this.traces = store.table('traces');
  }

  /** Keeps the parts of several items in one statement; for an item already waiting, the sides it lacks are added. */
  async stash(projectId: string, items: readonly { id: string; parts: MessageParts }[], now = Date.now()): Promise<void> {
    if (!items.length) return;
    const json = (v: unknown) => (empty(v) ? null : JSON.stringify(v));
    await this.store.insertMany(this.pending, ['project_id', 'item_id', 'input', 'output', 'created_at'],
      items.map((i) => [projectId, i.id, json(i.parts.input), json(i.parts.output), now]),
      { onConflict: `ON CONFLICT (project_id, item_id) DO UPDATE SET input = COALESCE(${this.pending}.input, excluded.input), output = COALESCE(${this.pending}.output, excluded.output)` });
  }

  /** The ids among `ids` that have parts waiting: one cheap query per persisted batch, mostly empty. */
  async waiting(projectId: string, ids: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      const chunk = ids.slice(i, i + IDS_PER_QUERY);
      const rows = await this.store.query<{ item_id: string }>(
        `SELECT item_id FROM ${this.pending} WHERE project_id = ? AND item_id IN (${chunk.map(() => '?').join(', ')})`, [projectId, ...chunk]);
      for (const r of rows) out.push(r.item_id);
    }
    return out;
  }

  /**
   * Moves the item's waiting parts into its stored trace, filling only empty sides. `stored` is false when the trace
   * is not stored yet (the parts keep waiting); `trace` is the trace as now stored, when this call changed it.
   */
  async apply(projectId: string, id: string): Promise<{ stored: boolean; trace?: PersistedTrace }> {
    return this.store.transaction(async (tx) => {
      const lock = tx.dialect === 'postgres' ? ' FOR UPDATE' : '';
      const rows = await tx.query<TraceRow>(`SELECT ${TRACE_READ_COLUMNS} FROM ${this.traces} WHERE project_id = ? AND id = ?${lock}`, [projectId, id]);
      if (!rows.length) return { stored: false };
      const claimed = await tx.query<{ input: string | null; output: string | null }>(
        `DELETE FROM ${this.pending} WHERE project_id = ? AND item_id = ? RETURNING input, output`, [projectId, id]);
      if (!claimed.length) return { stored: true };
      const stored = persisted(rows[0]);
      const trace = stored.trace;
      let changed = false;
      for (const side of ['input', 'output'] as const) {
        const text = claimed[0][side];
        if (text !== null && empty(trace[side])) {
          trace[side] = JSON.parse(text);
          changed = true;
        }
      }
      if (!changed) return { stored: true };
      await tx.run(`UPDATE ${this.traces} SET trace = ? WHERE project_id = ? AND id = ?`, [JSON.stringify(trace), projectId, id]);
      return { stored: true, trace: stored };
    });
  }

  /** Retention: parts whose span never came (not an LLM call, sampled out, never exported). */
  async deleteStale(now = Date.now()): Promise<number> {
    return (await this.store.run(`DELETE FROM ${this.pending} WHERE created_at < ?`, [now - PENDING_TTL_MS])).changes;
  }
}
