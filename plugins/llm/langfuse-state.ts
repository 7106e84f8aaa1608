import type { Store, Transaction } from '@vigil/plugin-sdk';
import type { LangfuseEntity } from './langfuse/entity-reducer.js';
import type { LangfuseStateStore } from './langfuse/state-store.js';

/** Partial Langfuse state untouched this long is deleted: the SDKs flush within seconds. */
export const STATE_TTL_MS = 86_400_000;

/**
 * Runs `fn` with the project's Langfuse state (`llm_langfuse_state`) in one transaction that excludes every other
 * batch of the project, in any process: on PostgreSQL an advisory lock on the project, on SQLite the write lock
 * every transaction takes. So two batches updating one observation merge one after the other, never both from the
 * same old state.
 */
export async function withLangfuseState<T>(store: Store, projectId: string, fn: (state: LangfuseStateStore) => Promise<T>): Promise<T> {
  const table = store.table('langfuse_state');
  return store.transaction(async (tx: Transaction) => {
    if (tx.dialect === 'postgres') await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('vigil.llm.langfuse:' || ?, 0))", [projectId]);
    const state: LangfuseStateStore = {
      async get(key) {
        const rows = await tx.query<{ entity: string }>(`SELECT entity FROM ${table} WHERE project_id = ? AND key = ?`, [projectId, key]);
        return rows.length ? JSON.parse(rows[0].entity) as LangfuseEntity : undefined;
      },
      async put(key, entity) {
        await tx.run(`INSERT INTO ${table} (project_id, key, entity, updated_at) VALUES (?, ?, ?, ?)
          ON CONFLICT (project_id, key) DO UPDATE SET entity = excluded.entity, updated_at = excluded.updated_at`,
        [projectId, key, JSON.stringify(entity), Date.now()]);
      },
    };
    return fn(state);
  });
}

/** Deletes state rows no event touched for `STATE_TTL_MS`. */
export async function deleteStaleLangfuseState(store: Store, now = Date.now()): Promise<number> {
  return (await store.run(`DELETE FROM ${store.table('langfuse_state')} WHERE updated_at < ?`, [now - STATE_TTL_MS])).changes;
}
