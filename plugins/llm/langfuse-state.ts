import type { Store, Transaction } from '@vigil/plugin-sdk';
import { isUnended, type LangfuseEntity } from './langfuse/entity-reducer.js';
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
        const now = Date.now();
        // A generation created and not stored yet starts (or restarts) its idle clock with every event that touches it.
        await tx.run(`INSERT INTO ${table} (project_id, key, entity, updated_at, unended_at, revision) VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (project_id, key) DO UPDATE SET entity = excluded.entity, updated_at = excluded.updated_at,
            unended_at = excluded.unended_at, revision = excluded.revision`,
        [projectId, key, JSON.stringify(entity), now, isUnended(entity) ? now : null, entity.revision ?? 0]);
      },
      async idle(before, limit) {
        const rows = await tx.query<{ key: string; size: number | string }>(
          `SELECT key, LENGTH(entity) AS size FROM ${table} WHERE project_id = ? AND unended_at IS NOT NULL AND unended_at < ? ORDER BY unended_at LIMIT ?`,
          [projectId, before, limit]);
        return rows.map((r) => ({ key: r.key, size: Number(r.size) }));
      },
    };
    return fn(state);
  });
}

/**
 * The revisions of `keys` as committed now (a row written before revisions were kept reads 0): which entities
 * changed since an item was built, without reading or parsing them.
 */
export async function readLangfuseRevisions(store: Store, projectId: string, keys: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const table = store.table('langfuse_state');
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    const rows = await store.query<{ key: string; revision: number | string | null }>(
      `SELECT key, revision FROM ${table} WHERE project_id = ? AND key IN (${chunk.map(() => '?').join(', ')})`, [projectId, ...chunk]);
    for (const r of rows) out.set(r.key, Number(r.revision ?? 0));
  }
  return out;
}

/** The entities of `keys` as committed now, without the project's lock: for reading what later batches merged. */
export async function readLangfuseState(store: Store, projectId: string, keys: readonly string[]): Promise<Map<string, LangfuseEntity>> {
  const out = new Map<string, LangfuseEntity>();
  const table = store.table('langfuse_state');
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    const rows = await store.query<{ key: string; entity: string }>(
      `SELECT key, entity FROM ${table} WHERE project_id = ? AND key IN (${chunk.map(() => '?').join(', ')})`, [projectId, ...chunk]);
    for (const r of rows) out.set(r.key, JSON.parse(r.entity) as LangfuseEntity);
  }
  return out;
}

/** Projects with generations created and left unended since before `before` (epoch ms), at most `limit`. */
export async function projectsWithUnended(store: Store, before: number, limit: number): Promise<string[]> {
  const rows = await store.query<{ project_id: string }>(
    `SELECT DISTINCT project_id FROM ${store.table('langfuse_state')} WHERE unended_at IS NOT NULL AND unended_at < ? LIMIT ?`, [before, limit]);
  return rows.map((r) => r.project_id);
}

/** Generations created and not stored yet, in every project, counted up to `cap` (the /metrics gauge). */
export async function countUnended(store: Store, cap: number): Promise<number> {
  const rows = await store.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${store.table('langfuse_state')} WHERE unended_at IS NOT NULL LIMIT ?) AS waiting`, [cap]);
  return Number(rows[0]?.n ?? 0);
}

/** Deletes state rows no event touched for `STATE_TTL_MS`. */
export async function deleteStaleLangfuseState(store: Store, now = Date.now()): Promise<number> {
  return (await store.run(`DELETE FROM ${store.table('langfuse_state')} WHERE updated_at < ?`, [now - STATE_TTL_MS])).changes;
}
