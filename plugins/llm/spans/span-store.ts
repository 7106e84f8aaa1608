/**
 * Where trace trees are written (`llm_span_traces`, `llm_spans`), by the lane's threads.
 *
 * A trace's spans come in several exports, in any order (BatchSpanProcessor exports children before parents, and a
 * trace's agent and tool spans may arrive before or after its LLM call). So every span of a trace is written as it
 * comes, and its trace row says whether the trace holds a stored LLM call (`has_llm`). A trace without one is
 * *held*: its spans wait at most `holdMs` from its first span (span-retention.ts deletes them after, counted), and a
 * project holds at most `holdMaxSpans` such spans (past it new ones are dropped, counted). Once an LLM call of the
 * trace is stored, the trace is kept with its project's retention, whichever came first.
 *
 * Bounds per trace: `maxPerTrace` spans; past it, other spans are dropped and counted on the trace row (`dropped`),
 * and its LLM calls are still written (they are the items). One write per request runs in one transaction, under a
 * per-project lock (PostgreSQL advisory lock; SQLite's write lock), so counts hold across processes.
 */
import type { Queryable, Row, SqlValue, Store } from '@vigil/plugin-sdk';
import type { SpanBounds } from './span-bounds.js';
import type { SpanRecord } from './span-record.js';

/** A span ready to store: its user data already bounded and redacted (keep-spans.ts). */
export interface PreparedSpan extends Omit<SpanRecord, 'parts'> {
  /** The redacted data as JSON text, and the same without input and output (an LLM call's item holds those). */
  data: string;
  linkedData: string;
  truncated: boolean;
}

export interface SpanCounts {
  stored: number;
  /** Of those stored, spans of traces with no LLM call yet. */
  held: number;
  droppedTraceLimit: number;
  droppedHoldFull: number;
}

export const noSpanCounts = (): SpanCounts => ({ stored: 0, held: 0, droppedTraceLimit: 0, droppedHoldFull: 0 });

/** Rows per statement, under both backends' parameter limits (13 columns). */
const CHUNK = 300;
const SPAN_COLUMNS = ['project_id', 'trace_id', 'span_id', 'source', 'parent_id', 'kind', 'name', 'start_ms', 'end_ms', 'status', 'item_id', 'truncated', 'data'];

export class SpanStore {
  private readonly traces: string;
  private readonly spans: string;
  private readonly items: string;

  constructor(private readonly store: Store) {
    this.traces = store.table('span_traces');
    this.spans = store.table('spans');
    this.items = store.table('traces');
  }

  /** Writes one request's spans within the bounds; a span seen before is updated (Langfuse's later events), never counted twice. */
  async write(projectId: string, spans: readonly PreparedSpan[], bounds: SpanBounds, now: number): Promise<SpanCounts> {
    const counts = noSpanCounts();
    if (!spans.length) return counts;
    return this.store.transaction(async (tx) => {
      if (tx.dialect === 'postgres') await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('vigil.llm.spans:' || ?, 0))", [projectId]);
      const traceIds = [...new Set(spans.map((s) => s.trace_id))];
      const rows = await this.inChunks<{ trace_id: string; has_llm: number | string; spans: number | string; dropped: number | string; truncated: number | string }>(tx,
        `SELECT trace_id, has_llm, spans, dropped, truncated FROM ${this.traces} WHERE project_id = ? AND trace_id IN`, projectId, traceIds);
      const traces = new Map(rows.map((r) => [r.trace_id, { has: Number(r.has_llm) === 1, spans: Number(r.spans), dropped: Number(r.dropped), truncated: Number(r.truncated), known: true }]));
      const existing = new Map<string, string | null>();
      for (const r of await this.inChunks<{ trace_id: string; span_id: string; item_id: string | null }>(tx,
        `SELECT trace_id, span_id, item_id FROM ${this.spans} WHERE project_id = ? AND span_id IN`, projectId, [...new Set(spans.map((s) => s.span_id))])) {
        existing.set(`${r.trace_id}/${r.span_id}`, r.item_id);
      }
      const candidates = [...new Set(spans.map((s) => s.llm_item_id).filter((id): id is string => id !== null))];
      const stored = new Set((await this.inChunks<{ id: string }>(tx, `SELECT id FROM ${this.items} WHERE project_id = ? AND id IN`, projectId, candidates)).map((r) => r.id));
      const [held] = await tx.query<{ n: number | string | null }>(`SELECT SUM(spans) AS n FROM ${this.traces} WHERE project_id = ? AND has_llm = 0`, [projectId]);
      let heldTotal = Number(held.n ?? 0);

      for (const s of spans) {
        let t = traces.get(s.trace_id);
        if (!t) traces.set(s.trace_id, (t = { has: false, spans: 0, dropped: 0, truncated: 0, known: false }));
        if (s.llm_item_id && stored.has(s.llm_item_id)) t.has = true;
      }
      const rowsOut: SqlValue[][] = [];
      for (const s of spans) {
        const t = traces.get(s.trace_id)!;
        const key = `${s.trace_id}/${s.span_id}`;
        const before = existing.get(key);
        const item = s.llm_item_id && stored.has(s.llm_item_id) ? s.llm_item_id : before ?? null;
        if (!existing.has(key)) {
          if (!item && t.spans >= bounds.maxPerTrace) { t.dropped++; counts.droppedTraceLimit++; continue; }
          if (!t.has && heldTotal >= bounds.holdMaxSpans) { counts.droppedHoldFull++; continue; }
          t.spans++;
          if (s.truncated) t.truncated++;
          if (!t.has) { heldTotal++; counts.held++; }
          counts.stored++;
        }
        existing.set(key, item);
        rowsOut.push([projectId, s.trace_id, s.span_id, s.source, s.parent_id, s.kind, s.name, s.start_ms, s.end_ms, s.status, item,
          s.truncated ? 1 : 0, item ? s.linkedData : s.data]);
      }
      for (let i = 0; i < rowsOut.length; i += CHUNK) {
        const chunk = rowsOut.slice(i, i + CHUNK);
        const one = `(${SPAN_COLUMNS.map(() => '?').join(', ')})`;
        await tx.run(`INSERT INTO ${this.spans} (${SPAN_COLUMNS.join(', ')}) VALUES ${chunk.map(() => one).join(', ')}
          ON CONFLICT (project_id, trace_id, span_id) DO UPDATE SET parent_id = excluded.parent_id, kind = excluded.kind, name = excluded.name,
            start_ms = excluded.start_ms, end_ms = excluded.end_ms, status = excluded.status, item_id = excluded.item_id,
            truncated = excluded.truncated, data = excluded.data`, chunk.flat());
      }
      const traceRows = [...traces.entries()].filter(([, t]) => t.known || t.spans > 0)
        .map(([id, t]) => [projectId, id, now, now, t.has ? 1 : 0, t.spans, t.dropped, t.truncated]);
      for (let i = 0; i < traceRows.length; i += CHUNK) {
        const chunk = traceRows.slice(i, i + CHUNK);
        await tx.run(`INSERT INTO ${this.traces} (project_id, trace_id, created_at, updated_at, has_llm, spans, dropped, truncated)
          VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
          ON CONFLICT (project_id, trace_id) DO UPDATE SET updated_at = excluded.updated_at, has_llm = excluded.has_llm,
            spans = excluded.spans, dropped = excluded.dropped, truncated = excluded.truncated`, chunk.flat());
      }
      return counts;
    });
  }

  /** Which of `ids` are stored items of the project. */
  async storedItems(projectId: string, ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.inChunks<{ id: string }>(this.store, `SELECT id FROM ${this.items} WHERE project_id = ? AND id IN`, projectId, [...new Set(ids)]);
    return new Set(rows.map((r) => r.id));
  }

  private async inChunks<R extends Row>(tx: Queryable, sql: string, projectId: string, values: readonly string[]): Promise<R[]> {
    const out: R[] = [];
    for (let i = 0; i < values.length; i += 500) {
      const chunk = values.slice(i, i + 500);
      out.push(...await tx.query<R>(`${sql} (${chunk.map(() => '?').join(', ')})`, [projectId, ...chunk]));
    }
    return out;
  }
}
