// Writes accumulated field observations to `capture_fields`: one upsert per row that adds the counts, keeps the
// earliest first_seen and the latest last_seen, and adds the kinds and formats name by name, in SQL, so that
// several instances sharing one PostgreSQL database never lose each other's counts.
import type { Dialect, SqlValue, Store } from '@vigil/plugin-sdk';
import type { FieldObservation } from './api-fields.js';

export const FIELD_KEY = ['route', 'location', 'status', 'name'];
export const FIELD_COLUMNS = [...FIELD_KEY, 'count', 'parents', 'kinds', 'formats', 'redacted', 'first_seen', 'last_seen'];

/** Two JSON objects of counts added key by key, as SQL. */
function mergedCounts(dialect: Dialect, stored: string, added: string): string {
  if (dialect === 'sqlite') {
    return `(SELECT json_group_object(key, total) FROM (SELECT key, SUM(value) AS total FROM (
      SELECT key, value FROM json_each(${stored}) UNION ALL SELECT key, value FROM json_each(${added})) GROUP BY key ORDER BY key))`;
  }
  return `(SELECT COALESCE(jsonb_object_agg(key, total), '{}'::jsonb)::text FROM (SELECT key, SUM(value::bigint) AS total FROM (
    SELECT key, value FROM jsonb_each_text(${stored}::jsonb) UNION ALL SELECT key, value FROM jsonb_each_text(${added}::jsonb)) AS u
    GROUP BY key) AS s)`;
}

/** The upsert's conflict clause for the table `table` (capture_fields, prefixed as the store names it). */
export function fieldUpsert(dialect: Dialect, table: string): string {
  const least = dialect === 'sqlite' ? 'MIN' : 'LEAST';
  const greatest = dialect === 'sqlite' ? 'MAX' : 'GREATEST';
  return `ON CONFLICT (${FIELD_KEY.join(', ')}) DO UPDATE SET
    count = ${table}.count + excluded.count, parents = ${table}.parents + excluded.parents,
    redacted = ${table}.redacted + excluded.redacted,
    kinds = ${mergedCounts(dialect, `${table}.kinds`, 'excluded.kinds')},
    formats = ${mergedCounts(dialect, `${table}.formats`, 'excluded.formats')},
    first_seen = ${least}(${table}.first_seen, excluded.first_seen), last_seen = ${greatest}(${table}.last_seen, excluded.last_seen)`;
}

function fieldRow(f: FieldObservation): SqlValue[] {
  return [f.route, f.location, f.status, f.name, f.count, f.parents, JSON.stringify(f.kinds), JSON.stringify(f.formats),
    f.redacted, Math.floor(f.firstSeen), Math.floor(f.lastSeen)];
}

const compareKeys = (a: SqlValue[], b: SqlValue[]): number => {
  for (let i = 0; i < FIELD_KEY.length; i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
};

/** Adds `fields` (one per key) to the stored rows, in one transaction, rows in key order (no deadlock between instances). */
export async function writeFields(store: Store, fields: readonly FieldObservation[]): Promise<void> {
  if (fields.length === 0) return;
  const table = store.table('fields');
  const rows = fields.map(fieldRow).sort(compareKeys);
  await store.transaction((tx) => tx.insertMany(table, FIELD_COLUMNS, rows, { onConflict: fieldUpsert(store.dialect, table) }));
}
