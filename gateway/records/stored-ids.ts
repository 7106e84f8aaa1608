import type { Store } from '@vigil/plugin-sdk';

/** Ids looked up per query (under SQLite's parameter limit). */
const ID_CHUNK = 500;

/** Which of `ids` `capture_records` holds already: a batch sent again after a lost answer is stored once. */
export async function storedIds(store: Store, ids: readonly string[]): Promise<Set<string>> {
  const table = store.table('records');
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const chunk = ids.slice(i, i + ID_CHUNK);
    const rows = await store.query<{ id: string }>(`SELECT id FROM ${table} WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk);
    for (const row of rows) found.add(row.id);
  }
  return found;
}
