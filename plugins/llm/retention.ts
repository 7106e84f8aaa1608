import type { Store } from '@vigil/plugin-sdk';

/** Rows deleted per statement, so a backlog never holds SQLite's single write lock for long. */
export const DELETE_CHUNK = 5_000;

/**
 * Deletes each project's traces and dead items older than its retention, in chunks between which ingest and the
 * persist stage get the store. Prompt versions stay: they are small, and a version's number must never be reused.
 */
export async function deleteExpired(store: Store, projects: readonly { id: string; retentionMs: number }[], now = Date.now()): Promise<number> {
  const traces = store.table('traces');
  let deleted = 0;
  for (const p of projects) {
    const cutoff = now - p.retentionMs;
    for (;;) {
      // The (project_id, created_at) index finds the oldest rows; the key columns identify them for the delete.
      const { changes } = await store.run(
        `DELETE FROM ${traces} WHERE project_id = ? AND id IN (SELECT id FROM ${traces} WHERE project_id = ? AND created_at < ? LIMIT ${DELETE_CHUNK})`,
        [p.id, p.id, cutoff]);
      deleted += changes;
      if (changes < DELETE_CHUNK) break;
    }
    await store.run(`DELETE FROM ${store.table('dead_items')} WHERE project_id = ? AND created_at < ?`, [p.id, cutoff]);
  }
  return deleted;
}
