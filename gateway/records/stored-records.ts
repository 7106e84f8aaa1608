// Reading the records `vigil run` stored (capture's `capture_records` table), for the commands that work on them
// offline (`vigil scan`, `vigil replay`, …). Plugins never import each other, so the one reader of that table's
// layout lives here.
import type { Store } from '@vigil/plugin-sdk';

/** One stored record: its id, its time (epoch ms) and its JSON text (a `GovernedRecord` once parsed). */
export interface StoredRecordRow {
  id: string;
  time: number;
  record: string;
}

/**
 * Stored records, newest first, from `since` (epoch ms), at most `limit`, in pages so that memory stays flat. The
 * pages follow the time index alone (no sort by id, which would read every row of the range): the records that share
 * a page's oldest time are fetched again with the next page and skipped by id.
 */
export async function* storedRecordRows(store: Store, since: number, limit: number): AsyncGenerator<StoredRecordRow> {
  const PAGE = 1000;
  let before = Number.MAX_SAFE_INTEGER;
  let left = limit;
  let lastIds = new Set<string>();
  while (left > 0) {
    const rows = await store.query<{ id: string; time: number; record: string }>(
      'SELECT id, time, record FROM capture_records WHERE time >= ? AND time <= ? ORDER BY time DESC LIMIT ?',
      [since, before, Math.min(PAGE, left) + lastIds.size],
    );
    const fresh = rows.filter((r) => !lastIds.has(r.id));
    if (fresh.length === 0) return;
    for (const row of fresh) {
      if (left-- <= 0) return;
      yield { id: row.id, time: Number(row.time), record: row.record };
    }
    const oldest = Number(fresh[fresh.length - 1].time);
    lastIds = new Set(rows.filter((r) => Number(r.time) === oldest).map((r) => r.id));
    before = oldest;
  }
}

/** Whether `err` says the records table does not exist yet: a store that `vigil run` never wrote to has no records. */
export function isMissingTable(err: unknown): boolean {
  return /no such table|does not exist/i.test(err instanceof Error ? err.message : String(err));
}
