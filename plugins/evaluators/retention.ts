import type { RetentionHook, SqlValue, Store } from '@vigil/plugin-sdk';

/** Rows deleted per statement, so a backlog never holds SQLite's single write lock for long (as the llm plugin does). */
export const DELETE_CHUNK = 5_000;

/** A table of this plugin's data about traces, and the column that dates a row against the traces' retention. */
interface Kept { table: string; time: string }

/**
 * The llm plugin's retention, applied to what this plugin keeps about traces (`onRetention`): eval results go when
 * their trace goes (by the trace's created_at), scores sent with traces when they are as old as the project's
 * traces may be (by the score's time); both go with their project when it is deleted (not in the sweep's list),
 * from before the list was read, so a project created meanwhile loses nothing.
 */
export async function deleteExpiredEvalData(store: Store, sweep: Parameters<RetentionHook>[0]): Promise<{ results: number; scores: number }> {
  const kept: Record<'results' | 'scores', Kept> = {
    results: { table: store.table('results'), time: 'trace_created_at' },
    scores: { table: store.table('scores'), time: 'created_at' },
  };
  const out = { results: 0, scores: 0 };
  for (const [name, { table, time }] of Object.entries(kept) as [keyof typeof kept, Kept][]) {
    for (const p of sweep.projects) out[name] += await deleteChunked(store, table, 'project_id = ? AND ' + time + ' < ?', [p.id, p.before]);
    // Results have no receipt time: a result made after `at` is of a project that existed then, so created_at serves.
    const receipt = name === 'scores' ? 'received_at' : 'created_at';
    const listed = sweep.projects.map(() => '?').join(', ');
    out[name] += await deleteChunked(store, table, `${listed ? `project_id NOT IN (${listed}) AND ` : ''}${receipt} < ?`, [...sweep.projects.map((p) => p.id), sweep.at]);
  }
  return out;
}

async function deleteChunked(store: Store, table: string, where: string, params: SqlValue[]): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { changes } = await store.run(`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} LIMIT ${DELETE_CHUNK})`, params);
    deleted += changes;
    if (changes < DELETE_CHUNK) return deleted;
  }
}
