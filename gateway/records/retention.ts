import type { Store } from '@vigil/plugin-sdk';
import { HOUR } from './rule-paths.js';

/** Rows deleted per statement, so a large backlog never holds SQLite's single write lock for long. */
export const DELETE_CHUNK = 5_000;

export interface RetentionLimits {
  /** Epoch ms of now. */
  now: number;
  /** Records older than this many ms are deleted. */
  recordsMs: number;
  /** Rollup minutes that ended more than this many ms ago are deleted. */
  rollupsMs: number;
}

/**
 * Deletes expired records (in chunks, between which capture's inserts get the store), expired rollups, rule
 * paths kept as long as rollups (whole hours: an hour goes once all of it is past the limit), and fields last seen
 * before the records' limit.
 */
export async function deleteExpired(store: Store, limits: RetentionLimits): Promise<{ records: number; rollups: number; rulePaths: number; fields: number }> {
  const records = store.table('records');
  const cutoff = limits.now - limits.recordsMs;
  let deletedRecords = 0;
  for (;;) {
    const { changes } = await store.run(
      `DELETE FROM ${records} WHERE id IN (SELECT id FROM ${records} WHERE time < ? LIMIT ${DELETE_CHUNK})`, [cutoff]);
    deletedRecords += changes;
    if (changes < DELETE_CHUNK) break;
  }
  const { changes: deletedRollups } = await store.run(
    `DELETE FROM ${store.table('rollups')} WHERE bucket < ?`, [limits.now - limits.rollupsMs - 60_000]);
  const { changes: deletedRulePaths } = await store.run(
    `DELETE FROM ${store.table('rule_paths')} WHERE bucket < ?`, [limits.now - limits.rollupsMs - HOUR]);
  // A field no exchange used within the records' retention is gone with them: `vigil check` then reports it unused.
  const { changes: deletedFields } = await store.run(`DELETE FROM ${store.table('fields')} WHERE last_seen < ?`, [cutoff]);
  return { records: deletedRecords, rollups: deletedRollups, rulePaths: deletedRulePaths, fields: deletedFields };
}
