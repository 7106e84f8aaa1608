// The full-text index of governed records' bodies: the string values of `request_body` and `response_body` as stored,
// which is the governed (redacted) text; a raw body never reaches it. Inserting records is the gateway's hot path
// (bench/records-stored.ts), so it stays as it was: a job indexes the records stored since its last run in bounded
// batches (indexNewRecords), and retention's deletes take their index entries with them.
// - SQLite: an FTS5 table without content, keyed by the record's rowid; the job's high-water mark is the last rowid
//   it indexed. Nothing here runs VACUUM, which would renumber rowids.
// - PostgreSQL: a table of (id, time, tsvector) with a GIN index, its rows deleted with their record (a foreign key);
//   the job takes records from its last time less a lag, which catches late writers of other processes, and skips
//   those indexed already.
import type { SqlValue, Store } from '@vigil/plugin-sdk';

/** Records one batch indexes; a run indexes at most MAX_BATCHES of them, so one run is bounded however far behind. */
export const SEARCH_BATCH = 2_000;
export const MAX_BATCHES = 10;
/** PostgreSQL: how far before the last indexed time a run looks again, for records other processes wrote late. */
const LATE_MS = 5 * 60_000;

const sqliteText = (x: string): string => ['request_body', 'response_body'].map((side) =>
  `coalesce((SELECT group_concat(value, ' ') FROM json_tree(${x}, '$.${side}') WHERE type = 'text'), '')`).join(` || ' ' || `);
const sqliteBody = (x: string): string => `CASE WHEN json_valid(${x}) THEN ${sqliteText(x)} ELSE '' END`;

/** The `up` of capture's migration that adds the index (empty: the job fills it, existing records first). */
export const RECORD_SEARCH_UP = {
  sqlite: `
    CREATE VIRTUAL TABLE capture_records_search USING fts5(body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
    CREATE TABLE capture_records_search_state (id INTEGER PRIMARY KEY CHECK (id = 1), last_rowid BIGINT NOT NULL, last_time BIGINT NOT NULL);
    INSERT INTO capture_records_search_state (id, last_rowid, last_time) VALUES (1, 0, 0);
    CREATE TRIGGER capture_records_search_delete AFTER DELETE ON capture_records BEGIN
      DELETE FROM capture_records_search WHERE rowid = old.rowid;
    END;`,
  // The exception blocks write nothing, so their subtransactions take no transaction id.
  postgres: `
    CREATE FUNCTION capture_record_search_vector(record TEXT) RETURNS tsvector LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
    DECLARE j jsonb;
    BEGIN
      j := record::jsonb;
      RETURN jsonb_to_tsvector('simple', coalesce(j -> 'request_body', 'null'), '["string"]')
        || jsonb_to_tsvector('simple', coalesce(j -> 'response_body', 'null'), '["string"]');
    EXCEPTION WHEN others THEN
      RETURN ''::tsvector;
    END $fn$;
    CREATE TABLE capture_records_search (
      id TEXT PRIMARY KEY REFERENCES capture_records (id) ON DELETE CASCADE, time BIGINT NOT NULL, body tsvector NOT NULL);
    CREATE INDEX capture_records_search_body ON capture_records_search USING GIN (body);
    CREATE TABLE capture_records_search_state (id INTEGER PRIMARY KEY CHECK (id = 1), last_rowid BIGINT NOT NULL, last_time BIGINT NOT NULL);
    INSERT INTO capture_records_search_state (id, last_rowid, last_time) VALUES (1, 0, 0);`,
};

async function sqliteBatch(store: Store): Promise<number> {
  return store.transaction(async (tx) => {
    const [state] = await tx.query<{ last_rowid: number | string }>('SELECT last_rowid FROM capture_records_search_state WHERE id = 1');
    const from = Number(state?.last_rowid ?? 0);
    const [range] = await tx.query<{ top: number | string | null; n: number | string }>(
      `SELECT MAX(rowid) AS top, COUNT(*) AS n FROM (SELECT rowid FROM capture_records WHERE rowid > ? ORDER BY rowid LIMIT ${SEARCH_BATCH})`, [from]);
    if (range.top === null) return 0;
    await tx.run(`INSERT INTO capture_records_search (rowid, body) SELECT rowid, ${sqliteBody('record')} FROM capture_records WHERE rowid > ? AND rowid <= ?`,
      [from, Number(range.top)]);
    await tx.run('UPDATE capture_records_search_state SET last_rowid = ? WHERE id = 1', [Number(range.top)]);
    return Number(range.n);
  });
}

async function postgresBatch(store: Store): Promise<number> {
  return store.transaction(async (tx) => {
    const [state] = await tx.query<{ last_time: number | string }>('SELECT last_time FROM capture_records_search_state WHERE id = 1 FOR UPDATE');
    const from = Math.max(0, Number(state?.last_time ?? 0) - LATE_MS);
    const rows = await tx.query<{ time: number | string }>(
      `INSERT INTO capture_records_search (id, time, body)
         SELECT r.id, r.time, capture_record_search_vector(r.record) FROM capture_records r
         WHERE r.time >= ? AND NOT EXISTS (SELECT 1 FROM capture_records_search s WHERE s.id = r.id) ORDER BY r.time LIMIT ${SEARCH_BATCH}
       ON CONFLICT DO NOTHING RETURNING time`, [from]);
    if (!rows.length) return 0;
    const top = Math.max(...rows.map((r) => Number(r.time)));
    await tx.run('UPDATE capture_records_search_state SET last_time = GREATEST(last_time, ?) WHERE id = 1', [top]);
    return rows.length;
  });
}

/** Indexes records stored since the last run, in batches of SEARCH_BATCH, at most MAX_BATCHES; returns how many. */
export async function indexNewRecords(store: Store): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = store.dialect === 'sqlite' ? await sqliteBatch(store) : await postgresBatch(store);
    total += n;
    if (n < SEARCH_BATCH) break;
  }
  return total;
}

/** The condition on `capture_records` for a body search (terms from plugin-sdk's parseSearchTerms). */
export function bodySearchCondition(store: Store, m: { kind: 'fts5'; match: string } | { kind: 'tsquery'; sql: string; params: SqlValue[] }): { sql: string; params: SqlValue[] } {
  if (m.kind === 'fts5') return { sql: 'rowid IN (SELECT rowid FROM capture_records_search WHERE capture_records_search MATCH ?)', params: [m.match] };
  return { sql: `id IN (SELECT id FROM capture_records_search WHERE body @@ ${m.sql})`, params: m.params };
}
