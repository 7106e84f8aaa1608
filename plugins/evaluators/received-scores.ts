import type { ReceivedScore, SqlValue, Store } from '@vigil/plugin-sdk';

/** A kept score as the APIs show it (times ISO 8601). */
export interface ShownScore {
  id: string;
  /** The Vigil trace item the score names, or null when it names only the sender's trace. */
  trace_id: string | null;
  sender_trace_id: string | null;
  observation_id: string | null;
  name: string;
  source: string;
  data_type: string;
  /** A number for NUMERIC and BOOLEAN (0/1), a string for CATEGORICAL: on the sender's scale, never 0..1 by rule. */
  value: number | string | null;
  comment: string | null;
  created_at: string;
  received_at: string;
}

export interface ScoresQuery {
  /** The Vigil trace item. */
  trace_id?: string;
  /** Also the scores of the sender's trace that name no item (trace-level scores), for a trace's page. */
  or_sender_trace_id?: string;
  sender_trace_id?: string;
  name?: string;
  /** Epoch ms: scores made at or after it. */
  since?: number;
  limit: number;
  offset: number;
}

type ScoreRow = {
  id: string; trace_id: string | null; sender_trace_id: string | null; observation_id: string | null; name: string; source: string;
  data_type: string; value_number: number | string | null; value_text: string | null; comment: string | null;
  created_at: number | string; received_at: number | string;
};

/**
 * What a score says: a resend that differs in none of these is the same score. Its times are left out, so a retried
 * batch whose events carry no timestamp (read as the time of receipt) is still the same score.
 */
const CONTENT = ['trace_id', 'name', 'source', 'data_type', 'value_number', 'value_text', 'comment', 'sender_trace_id', 'observation_id'];
const UPDATED = [...CONTENT, 'created_at', 'received_at'];
const iso = (ms: number | string) => new Date(Number(ms)).toISOString();
/** PostgreSQL's TEXT refuses NUL; the text is the sender's, so it is kept readable rather than refused. */
const text = (v: string | undefined) => (v === undefined ? null : v.replace(/\u0000/g, '\uFFFD'));

/**
 * Scores applications send with their traces (`llm.score.received`), kept apart from eval results: their scale is
 * the sender's (a Langfuse NUMERIC is any number), so they never enter eval averages, stats or the gate.
 */
export class ReceivedScores {
  private readonly table: string;

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.table = store.table('scores');
  }

  /**
   * Keeps a batch. Ids are the sender's and scoped to its project. A score sent again under its id replaces the kept
   * one, as Langfuse upserts scores by id; an identical one (the SDK retried its batch) is left as it is. Returns how
   * many were new or changed.
   */
  async keep(scores: readonly ReceivedScore[]): Promise<number> {
    let kept = 0;
    const received = this.now();
    for (const s of scores) {
      const at = Date.parse(s.timestamp);
      const number = typeof s.value === 'number' ? s.value : typeof s.value === 'boolean' ? Number(s.value) : null;
      const { changes } = await this.store.run(
        `INSERT INTO ${this.table} AS kept (project_id, id, trace_id, name, source, data_type, value_number, value_text, comment, sender_trace_id,
           observation_id, created_at, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (project_id, id) DO UPDATE SET ${UPDATED.map((c) => `${c} = excluded.${c}`).join(', ')}
         WHERE ${CONTENT.map((c) => `kept.${c} IS DISTINCT FROM excluded.${c}`).join(' OR ')}`,
        [s.project_id, s.id, s.item_id ?? null, text(s.name), s.source, s.data_type, number !== null && Number.isFinite(number) ? number : null,
          typeof s.value === 'string' ? text(s.value) : null, text(s.comment), text(s.trace_id), text(s.observation_id),
          Number.isNaN(at) ? received : at, received]);
      kept += changes;
    }
    return kept;
  }

  /** A project's scores, newest first. */
  async list(projectId: string, q: ScoresQuery): Promise<ShownScore[]> {
    const where = ['project_id = ?'];
    const params: SqlValue[] = [projectId];
    if (q.trace_id !== undefined && q.or_sender_trace_id !== undefined) {
      where.push('(trace_id = ? OR (trace_id IS NULL AND sender_trace_id = ?))');
      params.push(q.trace_id, q.or_sender_trace_id);
    } else if (q.trace_id !== undefined) { where.push('trace_id = ?'); params.push(q.trace_id); }
    if (q.sender_trace_id !== undefined) { where.push('sender_trace_id = ?'); params.push(q.sender_trace_id); }
    if (q.name !== undefined) { where.push('name = ?'); params.push(q.name); }
    if (q.since !== undefined) { where.push('created_at >= ?'); params.push(q.since); }
    const rows = await this.store.query<ScoreRow>(
      `SELECT id, trace_id, sender_trace_id, observation_id, name, source, data_type, value_number, value_text, comment, created_at, received_at
       FROM ${this.table} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [...params, q.limit, q.offset]);
    return rows.map((r) => ({
      id: r.id, trace_id: r.trace_id, sender_trace_id: r.sender_trace_id, observation_id: r.observation_id, name: r.name, source: r.source,
      data_type: r.data_type, value: r.value_number !== null ? Number(r.value_number) : r.value_text, comment: r.comment,
      created_at: iso(r.created_at), received_at: iso(r.received_at),
    }));
  }
}
