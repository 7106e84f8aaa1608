/**
 * Deleting trace trees: held traces (no stored LLM call) once their hold is over, and kept ones with their project's
 * retention. Each chunk is one transaction under the project's span lock (span-store.ts), so a trace that gets its
 * LLM call while it is being expired is either kept whole or was deleted before the call's spans were written.
 */
import type { Store } from '@vigil/plugin-sdk';

/** Traces per transaction, so a backlog never holds SQLite's write lock for long. */
const TRACES_PER_CHUNK = 500;

async function deleteTraces(store: Store, projectId: string, where: string, params: (string | number)[]): Promise<{ traces: number; spans: number }> {
  const traces = store.table('span_traces');
  const spans = store.table('spans');
  return store.transaction(async (tx) => {
    if (tx.dialect === 'postgres') await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('vigil.llm.spans:' || ?, 0))", [projectId]);
    const ids = (await tx.query<{ trace_id: string }>(
      `SELECT trace_id FROM ${traces} WHERE project_id = ? AND ${where} LIMIT ${TRACES_PER_CHUNK}`, [projectId, ...params])).map((r) => r.trace_id);
    if (!ids.length) return { traces: 0, spans: 0 };
    const list = ids.map(() => '?').join(', ');
    const deleted = await tx.run(`DELETE FROM ${spans} WHERE project_id = ? AND trace_id IN (${list})`, [projectId, ...ids]);
    await tx.run(`DELETE FROM ${traces} WHERE project_id = ? AND trace_id IN (${list})`, [projectId, ...ids]);
    return { traces: ids.length, spans: deleted.changes };
  });
}

/** Spans of traces that got no LLM call within `holdMs` of their first span: deleted; resolves to how many spans. */
export async function expireHeldSpans(store: Store, holdMs: number, now = Date.now()): Promise<number> {
  const projects = await store.query<{ project_id: string }>(
    `SELECT DISTINCT project_id FROM ${store.table('span_traces')} WHERE has_llm = 0 AND created_at < ?`, [now - holdMs]);
  let spans = 0;
  for (const { project_id: id } of projects) {
    for (;;) {
      const d = await deleteTraces(store, id, 'has_llm = 0 AND created_at < ?', [now - holdMs]);
      spans += d.spans;
      if (d.traces < TRACES_PER_CHUNK) break;
    }
  }
  return spans;
}

/** Trees older than each project's retention (by their first span's arrival), and every tree of a deleted project. */
export async function deleteExpiredTrees(store: Store, projects: readonly { id: string; retentionMs: number }[], now = Date.now()): Promise<number> {
  let traces = 0;
  const known = new Set(projects.map((p) => p.id));
  const stored = await store.query<{ project_id: string }>(`SELECT DISTINCT project_id FROM ${store.table('span_traces')}`);
  for (const { project_id: id } of stored) {
    const p = projects.find((x) => x.id === id);
    // A project not in the list (deleted) loses its trees up to `now`, the time the list was read: a project made since keeps its own.
    const cutoff = known.has(id) && p ? now - p.retentionMs : now;
    for (;;) {
      const d = await deleteTraces(store, id, 'created_at < ?', [cutoff]);
      traces += d.traces;
      if (d.traces < TRACES_PER_CHUNK) break;
    }
  }
  return traces;
}
