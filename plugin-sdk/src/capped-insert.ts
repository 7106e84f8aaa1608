import type { Store, Transaction } from './store.js';

/** What `insertWithinCap` needs: the table the cap counts, an optional filter of the rows it counts, and the cap. */
export interface RowCap {
  table: string;
  /** SQL condition of the rows that count (default: every row), with `?` placeholders for `params`. */
  where?: string;
  params?: readonly (string | number)[];
  cap: number;
}

/**
 * Reserves a row under a cap atomically: the count and `insert` run in one transaction that holds a lock on the
 * table against every process (PostgreSQL: an advisory transaction lock named after the table; SQLite: the write
 * lock BEGIN IMMEDIATE takes for the file), so that a burst of concurrent creates cannot each see room and together
 * pass the cap, as a count read before an insert lets them. Resolves to `insert`'s result, or to `full` (nothing
 * inserted) with the count it found.
 */
export async function insertWithinCap<T>(store: Store, cap: RowCap, insert: (tx: Transaction) => Promise<T>): Promise<{ inserted: true; value: T } | { inserted: false; count: number }> {
  return store.transaction(async (tx) => {
    if (tx.dialect === 'postgres') await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('vigil.cap:' || ?, 0))", [cap.table]);
    const [row] = await tx.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${cap.table}${cap.where ? ` WHERE ${cap.where}` : ''}`, cap.params ?? []);
    const count = Number(row.n);
    if (count >= cap.cap) return { inserted: false as const, count };
    return { inserted: true as const, value: await insert(tx) };
  });
}
