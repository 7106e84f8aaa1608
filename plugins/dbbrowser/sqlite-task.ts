// The SQLite side of the browser, run in a worker thread (a piscina pool): each task opens the file, does one thing
// and closes it. node-sqlite3 steps statements on libuv's pool, so a slow query never holds an event loop; its
// timeout is sqlite3_interrupt, called from this thread's timer (ending the thread mid-statement could abort the
// process). Read-only connections are opened with SQLITE_OPEN_READONLY: the library refuses every write, whatever the
// statement. ATTACH is off on every connection (its limit set to 0), so no statement reaches a file outside the roots.
import sqlite3 from 'sqlite3';
import { cellOf } from './cells.js';
import { QUERY_KEYWORDS, scanStatement } from './statement-scan.js';
import {
  MAX_PAGE_ROWS, MAX_RESULT_CHARS, MAX_TABLES, type Cell, type ColumnInfo, type QueryResult, type RowsPage, type TableInfo, type TableList,
} from './types.js';

export type SqliteTask =
  | { op: 'probe'; path: string }
  | { op: 'tables'; path: string; budgetMs: number }
  | { op: 'columns'; path: string; table: string }
  | { op: 'rows'; path: string; table: string; limit: number; cursor: string | undefined; timeoutMs: number }
  | { op: 'query'; path: string; sql: string; writable: boolean; timeoutMs: number; cap: number };

/** A failure sent back as data (errors lose their fields crossing the thread): the main thread maps `kind` to a code. */
export interface SqliteFailure { failed: true; kind: 'read_only' | 'timeout' | 'query' | 'open' | 'table' | 'cursor'; message: string }

type Row = Record<string, unknown>;

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

function open(path: string, writable: boolean): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, writable ? sqlite3.OPEN_READWRITE : sqlite3.OPEN_READONLY, (err) => {
      if (err) return reject(Object.assign(new Error(err.message), { kind: 'open' }));
      db.configure('busyTimeout', 1000);
      db.configure('limit', sqlite3.LIMIT_ATTACHED, 0);
      resolve(db);
    });
  });
}

const close = (db: sqlite3.Database): Promise<void> => new Promise((resolve) => db.close(() => resolve()));

const all = (db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<Row[]> =>
  new Promise((resolve, reject) => db.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as Row[]))));

/**
 * Rows of `sql` until `cap` rows or the character budget: then the statement is interrupted, not read to its end.
 * `timeoutMs` interrupts it as well. Resolves with the rows and why it stopped.
 *
 * node-sqlite3 reports a statement's error to the row callback, from a callback that may come after the completion's
 * (two separate libuv notifications): the result is settled only once the statement is finalized, which the library
 * queues behind the statement's work, so its error is known by then.
 */
function capped(db: sqlite3.Database, sql: string, params: unknown[], cap: number, timeoutMs: number) {
  return new Promise<{ rows: Row[]; cutBy: 'row_cap' | 'bytes' | null }>((resolve, reject) => {
    const rows: Row[] = [];
    let weight = 0;
    let cutBy: 'row_cap' | 'bytes' | null = null;
    let timedOut = false;
    let failure: (Error & { kind?: string }) | null = null;
    const timer = setTimeout(() => { timedOut = true; db.interrupt(); }, timeoutMs);
    const settle = () => {
      clearTimeout(timer);
      const interrupted = failure !== null && /SQLITE_INTERRUPT/.test(failure.message);
      if (failure && !(cutBy && interrupted)) return reject(timedOut && interrupted ? Object.assign(failure, { kind: 'timeout' }) : failure);
      resolve({ rows, cutBy });
    };
    const stmt = db.prepare(sql, params, (err) => {
      if (err) { failure = err; clearTimeout(timer); return reject(Object.assign(err, timedOut ? { kind: 'timeout' } : { prepare: true })); }
      stmt.each((e: Error | null, row: Row) => {
        if (e) { failure ??= e; return; }
        if (cutBy) return;
        if (rows.length >= cap) { cutBy = 'row_cap'; db.interrupt(); return; }
        for (const v of Object.values(row)) weight += typeof v === 'string' ? v.length : 8;
        rows.push(row);
        if (weight > MAX_RESULT_CHARS) { cutBy = 'bytes'; db.interrupt(); }
      }, () => { stmt.finalize(settle); });
    });
  });
}

async function tables(db: sqlite3.Database, budgetMs: number): Promise<TableList> {
  const found = await all(db, `SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name LIMIT ${MAX_TABLES + 1}`);
  const list: TableInfo[] = found.slice(0, MAX_TABLES).map((r) => ({
    schema: 'main', name: String(r.name), kind: r.type === 'view' ? 'view' : 'table', row_count: null, row_count_exact: true,
  }));
  // Exact counts, table by table, until the budget is spent: the rest stay null ("open the table to see").
  const until = Date.now() + budgetMs;
  for (const t of list) {
    const left = until - Date.now();
    if (t.kind === 'view' || left <= 0) continue;
    try {
      const { rows } = await capped(db, `SELECT count(*) AS n FROM ${quote(t.name)}`, [], 1, left);
      t.row_count = Number(rows[0]?.n ?? 0);
    } catch {
      // Out of budget (interrupted) or unreadable: the count stays unknown.
    }
  }
  return { schemas: ['main'], tables: list, truncated: found.length > MAX_TABLES };
}

async function columns(db: sqlite3.Database, table: string): Promise<ColumnInfo[]> {
  const known = await all(db, "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?", [table]);
  if (!known.length) throw Object.assign(new Error(`the database has no table or view named "${table}"`), { kind: 'table' });
  const info = await all(db, `PRAGMA table_info(${quote(table)})`);
  return info.map((c) => ({
    name: String(c.name), type: String(c.type ?? ''), nullable: !Number(c.notnull), primary_key: Number(c.pk) > 0,
    default: c.dflt_value === null || c.dflt_value === undefined ? null : String(c.dflt_value),
  }));
}

/** Keyset pages on `_rowid_` where the table has one (not a view, not WITHOUT ROWID); else LIMIT/OFFSET. */
async function rows(db: sqlite3.Database, table: string, limit: number, cursor: string | undefined, timeoutMs: number): Promise<RowsPage> {
  const cols = await columns(db, table);
  const names = cols.map((c) => c.name);
  const keyset = !names.some((n) => n.toLowerCase() === '_rowid_') && await all(db, `SELECT _rowid_ FROM ${quote(table)} LIMIT 0`).then(() => true, () => false);
  const n = Math.min(Math.max(1, limit), MAX_PAGE_ROWS);
  const position = decodeCursor(cursor, keyset ? 'k' : 'o');
  const list = names.map(quote).join(', ');
  const sql = keyset
    ? `SELECT _rowid_ AS "_rowid_", ${list} FROM ${quote(table)} ${position === null ? '' : 'WHERE _rowid_ > ?'} ORDER BY _rowid_ LIMIT ${n + 1}`
    : `SELECT ${list} FROM ${quote(table)} LIMIT ${n + 1} OFFSET ${Number(position ?? 0)}`;
  const { rows: got } = await capped(db, sql, position === null || !keyset ? [] : [position], n + 1, timeoutMs);
  const page = got.slice(0, n);
  const more = got.length > n;
  const last = page[page.length - 1];
  const next = !more ? null : keyset ? encodeCursor('k', last._rowid_ as number) : encodeCursor('o', Number(position ?? 0) + n);
  return {
    columns: cols.map((c) => ({ name: c.name, type: c.type || null })),
    rows: page.map((r) => names.map((name) => cellOf(r[name]))),
    next, paging: keyset ? 'keyset' : 'offset',
  };
}

/**
 * A statement that reads (SELECT, VALUES, WITH) is asked for one row past the cap (`SELECT * FROM (…) LIMIT cap + 1`),
 * so SQLite stops by itself instead of stepping on until the interrupt lands; one that cannot be wrapped so (a WITH
 * that writes, say) runs as given.
 */
async function cappedQuery(db: sqlite3.Database, sql: string, cap: number, timeoutMs: number) {
  if (QUERY_KEYWORDS.has(scanStatement(sql).keyword)) {
    const started = Date.now();
    try {
      return await capped(db, `SELECT * FROM (${sql}\n) LIMIT ${cap + 1}`, [], cap, timeoutMs);
    } catch (err) {
      if (!(err as { prepare?: boolean }).prepare) throw err;
      timeoutMs = Math.max(1, timeoutMs - (Date.now() - started));
    }
  }
  return capped(db, sql, [], cap, timeoutMs);
}

async function query(db: sqlite3.Database, sql: string, timeoutMs: number, cap: number): Promise<QueryResult> {
  const started = performance.now();
  const { rows: got, cutBy } = await cappedQuery(db, sql, cap, timeoutMs);
  const changes = got.length === 0 ? (await all(db, 'SELECT changes() AS n'))[0]?.n : null;
  const names = got.length ? Object.keys(got[0]) : [];
  const out: Cell[][] = got.map((r) => names.map((name) => cellOf(r[name])));
  return {
    columns: names.map((name) => ({ name, type: null })), rows: out,
    cut_at: cutBy ? out.length : null, cut_by: cutBy, command: null,
    affected: typeof changes === 'number' && changes > 0 ? changes : null,
    duration_ms: Math.round(performance.now() - started),
  };
}

export function encodeCursor(kind: 'k' | 'o', value: unknown): string {
  return Buffer.from(JSON.stringify({ [kind]: value })).toString('base64url');
}

/** The position a cursor holds (null: the first page), or a `cursor` failure when it is not one of this kind. */
export function decodeCursor(cursor: string | undefined, kind: 'k' | 'o'): unknown {
  if (cursor === undefined || cursor === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const value = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[kind] : undefined;
  const ok = kind === 'o' ? Number.isSafeInteger(value) && (value as number) >= 0 : typeof value === 'number' || typeof value === 'string';
  if (!ok) throw Object.assign(new Error('the page cursor is not one this browser handed out for this table'), { kind: 'cursor' });
  return value;
}

const kindOf = (err: Error & { kind?: string; code?: string }): SqliteFailure['kind'] =>
  err.kind === 'timeout' || err.kind === 'open' || err.kind === 'table' || err.kind === 'cursor' ? err.kind
    : err.code === 'SQLITE_READONLY' || /SQLITE_READONLY|attempt to write a readonly database/.test(err.message) ? 'read_only' : 'query';

export default async function sqliteTask(task: SqliteTask): Promise<unknown> {
  let db: sqlite3.Database | undefined;
  try {
    db = await open(task.path, task.op === 'query' && task.writable);
    switch (task.op) {
      case 'probe': await all(db, 'SELECT count(*) FROM sqlite_master'); return { ok: true };
      case 'tables': return await tables(db, task.budgetMs);
      case 'columns': return await columns(db, task.table);
      case 'rows': return await rows(db, task.table, task.limit, task.cursor, task.timeoutMs);
      case 'query': return await query(db, task.sql, task.timeoutMs, task.cap);
    }
  } catch (err) {
    const failure: SqliteFailure = { failed: true, kind: kindOf(err as Error), message: (err as Error).message.replace(/^SQLITE_\w+: /, '') };
    return failure;
  } finally {
    if (db) await close(db);
  }
}
