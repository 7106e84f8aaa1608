import type { Store } from '@vigil/plugin-sdk';

/**
 * The full-text index of stored traces: the string values of each trace's `input` and `output`, read from the stored
 * trace JSON, which is the redacted text. A raw value never reaches the index, because the index is built from the
 * row and the row only ever holds what redaction left.
 *
 * The database builds and keeps the index, so no tokenising runs on the event loop (node-sqlite3 runs statements on
 * libuv's pool, and PostgreSQL in its own process), and every write of the `trace` column (an insert, a Langfuse
 * update, a retention delete) keeps it current in the same transaction:
 * - SQLite: an FTS5 table without content (the text is not stored twice), keyed by the trace row's rowid and kept by
 *   triggers. Nothing here runs VACUUM, which would renumber those rowids; `reindexAllTraces` rebuilds the index if
 *   a VACUUM ever does.
 * - PostgreSQL: a stored generated `tsvector` column with a GIN index. Trace JSON that jsonb refuses (a `\u0000`
 *   escape, a lone surrogate) or a vector past PostgreSQL's 1 MB falls back to the words of the first 100,000
 *   characters of the stored text, then to an empty vector: a trace that cannot be indexed is still stored.
 * Both use simple word splitting, without stemming or stop words, so a search finds the words as written.
 */

/** The string values under `$.input` and `$.output` of the trace JSON `x`, space separated (SQLite). */
const sqliteText = (x: string): string => ['input', 'output'].map((side) =>
  `coalesce((SELECT group_concat(value, ' ') FROM json_tree(${x}, '$.${side}') WHERE type = 'text'), '')`).join(` || ' ' || `);
const sqliteBody = (x: string): string => `CASE WHEN json_valid(${x}) THEN ${sqliteText(x)} ELSE '' END`;

const SQLITE = `
  CREATE VIRTUAL TABLE llm_traces_search USING fts5(body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
  INSERT INTO llm_traces_search (rowid, body) SELECT rowid, ${sqliteBody('trace')} FROM llm_traces;
  CREATE TRIGGER llm_traces_search_insert AFTER INSERT ON llm_traces BEGIN
    INSERT INTO llm_traces_search (rowid, body) VALUES (new.rowid, ${sqliteBody('new.trace')});
  END;
  CREATE TRIGGER llm_traces_search_update AFTER UPDATE OF trace ON llm_traces BEGIN
    DELETE FROM llm_traces_search WHERE rowid = old.rowid;
    INSERT INTO llm_traces_search (rowid, body) VALUES (new.rowid, ${sqliteBody('new.trace')});
  END;
  CREATE TRIGGER llm_traces_search_delete AFTER DELETE ON llm_traces BEGIN
    DELETE FROM llm_traces_search WHERE rowid = old.rowid;
  END;`;

// The exception blocks write nothing, so their subtransactions take no transaction id.
const POSTGRES = `
  CREATE FUNCTION llm_trace_search_vector(trace TEXT) RETURNS tsvector LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
  DECLARE j jsonb;
  BEGIN
    j := trace::jsonb;
    RETURN jsonb_to_tsvector('simple', coalesce(j -> 'input', 'null'), '["string"]')
      || jsonb_to_tsvector('simple', coalesce(j -> 'output', 'null'), '["string"]');
  EXCEPTION WHEN others THEN
    BEGIN
      RETURN to_tsvector('simple', left(trace, 100000));
    EXCEPTION WHEN others THEN
      RETURN ''::tsvector;
    END;
  END $fn$;
  ALTER TABLE llm_traces ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (llm_trace_search_vector(trace)) STORED;
  CREATE INDEX llm_traces_search ON llm_traces USING GIN (search_vector);`;

// Sessions and users are read per project over a time range.
const GROUPS = `
  CREATE INDEX llm_traces_project_session ON llm_traces (project_id, session_id, created_at);
  CREATE INDEX llm_traces_project_user ON llm_traces (project_id, user_id, created_at);`;

/** The `up` of the llm plugin's migration that adds search, and the indexes sessions and users read by. */
export const TRACE_SEARCH_UP = { sqlite: SQLITE + GROUPS, postgres: POSTGRES + GROUPS };

/**
 * Indexes one stored trace again from its stored (redacted) text. Any write of the `trace` column does this already
 * (trigger or generated column); this is for a writer that wants to say so, and for repair.
 */
export async function reindexTrace(store: Store, projectId: string, traceId: string): Promise<boolean> {
  const { changes } = await store.run(`UPDATE ${store.table('traces')} SET trace = trace WHERE project_id = ? AND id = ?`, [projectId, traceId]);
  return changes > 0;
}

/** Rebuilds the whole SQLite index from the stored traces (after a VACUUM); PostgreSQL's column needs no rebuild. */
export async function reindexAllTraces(store: Store): Promise<void> {
  if (store.dialect !== 'sqlite') return;
  const fts = store.table('traces_search');
  await store.transaction(async (tx) => {
    await tx.run(`INSERT INTO ${fts} (${fts}) VALUES ('delete-all')`);
    await tx.run(`INSERT INTO ${fts} (rowid, body) SELECT rowid, ${sqliteBody('trace')} FROM ${store.table('traces')}`);
  });
}
