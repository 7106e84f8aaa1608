// The database browser in a real `vigil run`, against real SQLite files and the test machine's PostgreSQL: browse,
// page, query, CSV; a write on a read-only connection refused by the database itself (the file and the table are
// unchanged afterwards); the timeout and the row cap on deliberately slow and endless queries, with the event loop
// answering /api/health all the while; writes turned on are audited; the password is in no answer and not in the
// store in plain text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { controlApi } from '../support/control-api.js';
import { freePort, scaledTimeout, waitFor } from '../support/net.js';
import { postgresAvailable, postgresUrl } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'dbbrowser-run-dashboard-token-01';
const SECRET = 'pg-password-that-must-never-come-back-7f3a';
const work = tempDir('vigil-dbbrowser-');
const root = join(work.path, 'dbs');
const dbFile = join(root, 'app.db');
const SCHEMA = `dbb_${process.pid}`;
let vigil: VigilProcess;
let base = '';
let pgUp = false;
let sqliteId = '';
let pgId = '';
/** `seen`: every answer's text, to look for the password in. */
const { api, post, seen } = controlApi(() => base, TOKEN);
const query = (id: string, sql: string, extra: Record<string, unknown> = {}) => post(`/api/db/connections/${id}/query`, { sql, ...extra });

function sqliteExec(file: string, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (err) => {
      if (err) return reject(err);
      db.exec(sql, (e) => db.close(() => (e ? reject(e) : resolve())));
    });
  });
}
function sqliteCount(file: string, table: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => {
      if (err) return reject(err);
      db.get(`SELECT count(*) AS n FROM ${table}`, (e, row: { n: number }) => db.close(() => (e ? reject(e) : resolve(row.n))));
    });
  });
}
async function pgDo<T = unknown>(sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: postgresUrl });
  await c.connect();
  try { return (await c.query(sql)).rows as T[]; } finally { await c.end(); }
}

/**
 * Runs `during` while /api/health is asked again and again; returns the longest answer in ms and how many came. An
 * event loop held by the statement would show as one answer as long as the statement.
 */
async function healthWhile<T>(during: Promise<T>): Promise<{ result: T; worstMs: number; answers: number }> {
  let done = false;
  let worstMs = 0;
  let answers = 0;
  const probing = (async () => {
    while (!done) {
      const t = performance.now();
      const res = await fetch(`${base}/api/health`);
      await res.arrayBuffer();
      worstMs = Math.max(worstMs, performance.now() - t);
      answers++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const result = await during.finally(() => { done = true; });
  await probing;
  return { result, worstMs, answers };
}

test.before(async () => {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(root, { recursive: true });
  const rows = Array.from({ length: 250 }, (_, i) => `(${i + 1}, 'item ${i + 1}', ${i === 7 ? "'=HYPERLINK(\"x\")'" : `'note, "quoted" ${i}'`})`).join(',');
  await sqliteExec(dbFile, `PRAGMA journal_mode = WAL;
    CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT);
    INSERT INTO items VALUES ${rows};
    CREATE TABLE tags (k TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID;
    INSERT INTO tags SELECT 'tag' || value, value FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 30) SELECT value FROM s);
    CREATE VIEW first_ten AS SELECT * FROM items WHERE id <= 10;`);
  writeFileSync(join(root, 'not-a-db.db'), 'this is text, not a database file, and long enough to have a header of its own......');
  pgUp = await postgresAvailable('dbbrowser-run');
  if (pgUp) {
    await pgDo(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA};
      CREATE TABLE ${SCHEMA}.items (id integer PRIMARY KEY, name text NOT NULL, made timestamptz DEFAULT now());
      INSERT INTO ${SCHEMA}.items (id, name) SELECT g, 'item ' || g FROM generate_series(1, 250) g;
      CREATE TABLE ${SCHEMA}.big (n bigint, label text);
      INSERT INTO ${SCHEMA}.big SELECT g, 'row ' || g FROM generate_series(1, 150000) g;
      ANALYZE ${SCHEMA}.big;`);
  }
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  vigil = await startVigil(writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
dbbrowser:
  roots: [${JSON.stringify(root)}]
`), base, { cwd: work.path });
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  if (pgUp) await pgDo(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).catch(() => {});
  work.cleanup();
});

test('a SQLite file outside the roots, a path that climbs out of them, and a file that is not a database are refused', async () => {
  for (const path of ['/etc/passwd', `${root}/../../etc/hostname`, 'relative.db', join(root, 'not-a-db.db'), join(root, 'missing.db')]) {
    const res = await post('/api/db/connections', { name: `bad ${path}`, kind: 'sqlite', path });
    assert.is(res.status, 400, `${path}: ${res.text}`);
    assert.is(res.body.error.code, 'VIGIL_ERR_DBBROWSER_CONNECTION_INVALID', path);
  }
  const mixed = await post('/api/db/connections', { name: 'mixed', kind: 'sqlite', path: dbFile, host: 'x' });
  assert.is(mixed.status, 400);
  assert.is((await api('/api/db/connections')).body.connections.length, 0);
});

test('a SQLite file is saved read-only, and its tables come with exact counts and columns', async () => {
  const added = await post('/api/db/connections', { name: 'app', kind: 'sqlite', path: dbFile });
  assert.is(added.status, 201, added.text);
  assert.is(added.body.writable, false);
  sqliteId = added.body.id;
  const list = await api(`/api/db/connections/${sqliteId}/tables`);
  assert.is(list.status, 200, list.text);
  assert.equal(list.body.schemas, ['main']);
  const byName = Object.fromEntries(list.body.tables.map((t: { name: string }) => [t.name, t]));
  assert.equal(byName.items, { schema: 'main', name: 'items', kind: 'table', row_count: 250, row_count_exact: true });
  assert.is(byName.tags.row_count, 30);
  assert.is(byName.first_ten.kind, 'view');
  const cols = await api(`/api/db/connections/${sqliteId}/columns?schema=main&table=items`);
  assert.equal(cols.body.columns.map((c: { name: string; type: string; primary_key: boolean }) => [c.name, c.type, c.primary_key]),
    [['id', 'INTEGER', true], ['name', 'TEXT', false], ['note', 'TEXT', false]]);
  const missing = await api(`/api/db/connections/${sqliteId}/columns?schema=main&table=nope`);
  assert.is(missing.status, 404);
  assert.is(missing.body.error.code, 'VIGIL_ERR_DBBROWSER_TABLE_UNKNOWN');
});

/** Every row of a table, page by page; asserts each page's size and the paging kind. */
async function allPages(id: string, schema: string, table: string, limit: number, paging: string): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await api(`/api/db/connections/${id}/rows?schema=${schema}&table=${table}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    assert.is(res.status, 200, res.text);
    assert.is(res.body.paging, paging);
    assert.ok(res.body.rows.length <= limit);
    rows.push(...res.body.rows);
    cursor = res.body.next;
    if (!cursor) return rows;
  }
  throw new Error('paging never ended');
}

test('SQLite rows page by rowid (keyset), a WITHOUT ROWID table by offset, each row once', async () => {
  const items = await allPages(sqliteId, 'main', 'items', 100, 'keyset');
  assert.equal(items.map((r) => r[0]), Array.from({ length: 250 }, (_, i) => i + 1));
  assert.is(items[0].length, 3);
  const tags = await allPages(sqliteId, 'main', 'tags', 7, 'offset');
  assert.is(new Set(tags.map((r) => r[0])).size, 30);
  const bad = await api(`/api/db/connections/${sqliteId}/rows?schema=main&table=items&cursor=bm90LWEtY3Vyc29y`);
  assert.is(bad.status, 400);
  assert.is(bad.body.error.code, 'VIGIL_ERR_DBBROWSER_CURSOR');
  assert.is((await api(`/api/db/connections/${sqliteId}/rows?schema=main&table=items&limit=501`)).status, 400, 'the page size is bounded');
});

test('a SQLite query is cut at the row cap and says so; its CSV has the header, the quotes and a neutralised formula', async () => {
  const res = await query(sqliteId, 'SELECT id, name, note FROM items ORDER BY id;', { max_rows: 100 });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.rows.length, 100);
  assert.is(res.body.cut_at, 100);
  assert.is(res.body.cut_by, 'row_cap');
  assert.is(res.body.read_only, true);
  assert.equal(res.body.columns.map((c: { name: string }) => c.name), ['id', 'name', 'note']);
  const heavy = await query(sqliteId, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, printf('%.9000c', 'x') AS t FROM c", { max_rows: 5000 });
  assert.is(heavy.status, 200, heavy.text.slice(0, 300));
  assert.is(heavy.body.cut_by, 'bytes');
  assert.ok(heavy.body.cut_at > 100 && heavy.body.cut_at < 1000, `cut at ${heavy.body.cut_at}`);
  const blob = await query(sqliteId, 'SELECT zeroblob(100) AS b');
  assert.match(blob.body.rows[0][0], /^\\x(00){64}… \(100 bytes\)$/);
  const whole = await query(sqliteId, 'SELECT count(*) AS n FROM items');
  assert.equal(whole.body.rows, [[250]]);
  assert.is(whole.body.cut_at, null);
  const csv = await post(`/api/db/connections/${sqliteId}/query.csv`, { sql: 'SELECT id, note FROM items WHERE id IN (1, 8) ORDER BY id' });
  assert.is(csv.status, 200, csv.text);
  assert.match(csv.headers.get('content-type')!, /^text\/csv/);
  assert.is(csv.text, '"id","note"\r\n"1","note, ""quoted"" 0"\r\n"8","\'=HYPERLINK(""x"")"\r\n');
  const perch = await post('/api/dbquery', { connection: sqliteId, sql: 'SELECT count(*) FROM items' });
  assert.is(perch.status, 200, perch.text);
  assert.equal(perch.body.rows, [[250]], 'perch\'s /api/dbquery answers as the editor does');
  const two = await query(sqliteId, 'SELECT 1; SELECT 2');
  assert.is(two.status, 400);
  assert.is(two.body.error.code, 'VIGIL_ERR_DBBROWSER_STATEMENT');
});

test('a write on the read-only SQLite connection is refused by SQLite itself, and the file is unchanged', async () => {
  for (const sql of ["INSERT INTO items (id, name) VALUES (999, 'x')", 'DELETE FROM items', 'CREATE TABLE t (a)', 'DROP TABLE tags', 'PRAGMA user_version = 5']) {
    const res = await query(sqliteId, sql);
    assert.is(res.status, 403, `${sql}: ${res.text}`);
    assert.is(res.body.error.code, 'VIGIL_ERR_DBBROWSER_READ_ONLY', sql);
    assert.match(res.body.error.message, /readonly/i);
  }
  const attach = await query(sqliteId, `ATTACH '${join(root, 'other.db')}' AS other`);
  assert.is(attach.status, 400, 'ATTACH is off, so no statement reaches another file');
  assert.not.ok(existsSync(join(root, 'other.db')));
  assert.is(await sqliteCount(dbFile, 'items'), 250);
  assert.is(await sqliteCount(dbFile, 'tags'), 30);
});

test('an endless SQLite query is interrupted at its timeout and a row cap ends an endless result, the event loop answering throughout', async () => {
  const timeoutMs = 1500;
  const slow = await healthWhile(query(sqliteId, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', { timeout_ms: timeoutMs }));
  assert.is(slow.result.status, 408, slow.result.text);
  assert.is(slow.result.body.error.code, 'VIGIL_ERR_DBBROWSER_TIMEOUT');
  assert.ok(slow.answers >= 5, `health answered ${slow.answers} times while the statement ran`);
  assert.ok(slow.worstMs < timeoutMs, `the slowest health answer took ${Math.round(slow.worstMs)} ms: the statement held the event loop`);
  const endless = await query(sqliteId, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c', { max_rows: 500, timeout_ms: scaledTimeout(20_000) });
  assert.is(endless.status, 200, endless.text);
  assert.is(endless.body.cut_at, 500);
  assert.is(endless.body.rows[499][0], 500);
});

test('writes turned on: SQLite takes the write, the audit log holds the statement; turned off again, refused again', async () => {
  const on = await post(`/api/db/connections/${sqliteId}`, { writable: true }, 'PATCH');
  assert.is(on.status, 200, on.text);
  assert.is(on.body.writable, true);
  const ins = await query(sqliteId, "INSERT INTO items (id, name) VALUES (1000, 'written through the browser')");
  assert.is(ins.status, 200, ins.text);
  assert.is(ins.body.affected, 1);
  assert.is(ins.body.read_only, false);
  assert.is(await sqliteCount(dbFile, 'items'), 251);
  const audit = await api('/api/audit?limit=50');
  const entry = audit.body.entries.find((e: { action: string; detail: string | null }) => e.action === 'database statement' && e.detail?.includes('written through the browser'));
  assert.ok(entry, `no audit entry for the write: ${audit.text.slice(0, 2000)}`);
  assert.is(entry.target, 'app (sqlite)');
  assert.is(entry.status, 200);
  const off = await post(`/api/db/connections/${sqliteId}`, { writable: false }, 'PATCH');
  assert.is(off.body.writable, false, off.text);
  const refused = await query(sqliteId, 'DELETE FROM items WHERE id = 1000');
  assert.is(refused.status, 403, refused.text);
  assert.is(await sqliteCount(dbFile, 'items'), 251);
});

test('PostgreSQL: saved with a password that no answer ever holds, nor the store in plain text', async () => {
  if (!pgUp) return;
  const bad = await post('/api/db/connections', { name: 'nowhere', kind: 'postgres', host: '127.0.0.1', port: 1, database: 'test', user: 'postgres' });
  assert.is(bad.status, 400, bad.text);
  const added = await post('/api/db/connections', { name: 'pg', kind: 'postgres', host: '127.0.0.1', port: 5432, database: 'test', user: 'postgres', password: SECRET });
  assert.is(added.status, 201, added.text);
  assert.is(added.body.has_password, true);
  assert.not.ok('password' in added.body);
  pgId = added.body.id;
  const listed = await api('/api/db/connections');
  assert.is(listed.body.connections.find((c: { id: string }) => c.id === pgId).has_password, true);
  const stored = ['vigil.db', 'vigil.db-wal'].map((f) => join(work.path, 'data', f)).filter(existsSync).map((f) => readFileSync(f));
  assert.ok(stored.length > 0);
  for (const bytes of stored) assert.is(bytes.indexOf(SECRET), -1, 'the password is in the store in plain text');
});

test('PostgreSQL: tables with exact counts for small ones and the planner estimate for big ones; keyset pages', async () => {
  if (!pgUp) return;
  const list = await api(`/api/db/connections/${pgId}/tables`);
  assert.is(list.status, 200, list.text);
  assert.ok(list.body.schemas.includes(SCHEMA));
  const mine = list.body.tables.filter((t: { schema: string }) => t.schema === SCHEMA);
  const items = mine.find((t: { name: string }) => t.name === 'items');
  const big = mine.find((t: { name: string }) => t.name === 'big');
  assert.equal([items.row_count, items.row_count_exact], [250, true]);
  assert.is(big.row_count_exact, false);
  assert.ok(Math.abs(big.row_count - 150_000) < 15_000, `estimate ${big.row_count}`);
  const cols = await api(`/api/db/connections/${pgId}/columns?schema=${SCHEMA}&table=items`);
  assert.equal(cols.body.columns.map((c: { name: string; type: string; primary_key: boolean }) => [c.name, c.type, c.primary_key]),
    [['id', 'integer', true], ['name', 'text', false], ['made', 'timestamp with time zone', false]]);
  const rows = await allPages(pgId, SCHEMA, 'items', 100, 'keyset');
  assert.equal(rows.map((r) => Number(r[0])), Array.from({ length: 250 }, (_, i) => i + 1));
  const first = await api(`/api/db/connections/${pgId}/rows?schema=${SCHEMA}&table=big&limit=50`);
  assert.is(first.body.paging, 'offset');
  assert.is(first.body.rows.length, 50);
});

test('PostgreSQL: a query is cut at the row cap through a cursor; its CSV follows', async () => {
  if (!pgUp) return;
  const res = await query(pgId, 'SELECT g AS n, g * 2 AS twice FROM generate_series(1, 1000000) g', { max_rows: 1000 });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.rows.length, 1000);
  assert.is(res.body.cut_at, 1000);
  assert.equal(res.body.columns, [{ name: 'n', type: 'integer' }, { name: 'twice', type: 'integer' }]);
  const exact = await query(pgId, 'SELECT g FROM generate_series(1, 1000) g', { max_rows: 1000 });
  assert.is(exact.body.cut_at, null, 'exactly the cap is not a cut');
  // The byte budget: 9,000-character texts pass about 8 MB well before the cap; a 20,000-character text is cut at 10,000.
  const heavy = await query(pgId, "SELECT repeat('x', 9000) AS t FROM generate_series(1, 5000)", { max_rows: 5000 });
  assert.is(heavy.body.cut_by, 'bytes', heavy.text.slice(0, 300));
  assert.ok(heavy.body.cut_at > 100 && heavy.body.cut_at < 1000, `cut at ${heavy.body.cut_at}`);
  const long = await query(pgId, "SELECT repeat('y', 20000) AS t");
  assert.match(long.body.rows[0][0], /^y{10000}… \(20,000 characters\)$/);
  const csv = await post(`/api/db/connections/${pgId}/query.csv`, { sql: `SELECT id, name FROM ${SCHEMA}.items ORDER BY id LIMIT 2` });
  assert.is(csv.text, '"id","name"\r\n"1","item 1"\r\n"2","item 2"\r\n');
});

test('PostgreSQL: writes on a read-only connection are refused by the server (SQLSTATE 25006), the table unchanged', async () => {
  if (!pgUp) return;
  for (const sql of [`INSERT INTO ${SCHEMA}.items (id, name) VALUES (999, 'x')`, `DELETE FROM ${SCHEMA}.items`, `CREATE TABLE ${SCHEMA}.t (a int)`, `TRUNCATE ${SCHEMA}.big`]) {
    const res = await query(pgId, sql);
    assert.is(res.status, 403, `${sql}: ${res.text}`);
    assert.is(res.body.error.code, 'VIGIL_ERR_DBBROWSER_READ_ONLY');
    assert.match(res.body.error.message, /read-only transaction/);
  }
  // A statement that tries to leave the read-only transaction runs alone (the extended protocol takes one), and what
  // it changed of the session is rolled back with the transaction.
  assert.is((await query(pgId, 'SET SESSION default_transaction_read_only = off')).status, 200);
  const still = await query(pgId, `INSERT INTO ${SCHEMA}.items (id, name) VALUES (998, 'x')`);
  assert.is(still.status, 403);
  const [{ n }] = await pgDo<{ n: string }>(`SELECT count(*) AS n FROM ${SCHEMA}.items`);
  assert.is(Number(n), 250);
  assert.is((await pgDo(`SELECT 1 FROM pg_tables WHERE schemaname = '${SCHEMA}' AND tablename = 't'`)).length, 0);
});

test('PostgreSQL: pg_sleep is cancelled at its timeout by the server, the event loop answering throughout', async () => {
  if (!pgUp) return;
  const timeoutMs = 1500;
  const slow = await healthWhile(query(pgId, 'SELECT pg_sleep(30)', { timeout_ms: timeoutMs }));
  assert.is(slow.result.status, 408, slow.result.text);
  assert.is(slow.result.body.error.code, 'VIGIL_ERR_DBBROWSER_TIMEOUT');
  assert.ok(slow.answers >= 5, `health answered ${slow.answers} times`);
  assert.ok(slow.worstMs < timeoutMs, `the slowest health answer took ${Math.round(slow.worstMs)} ms`);
  // The backend reports its new state just after it sent the error: wait a moment for that (at most 5 s, 15 s under
  // CI: still well before the 30 s sleep could have ended by itself).
  const activeNow = async () => Number((await pgDo<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)' AND state = 'active'"))[0].n);
  const active = await waitFor(async () => { const n = await activeNow(); return n === 0 ? { n } : undefined; },
    { timeoutMs: 5000, intervalMs: 250, what: 'pg_sleep gone from pg_stat_activity' }).catch(async () => ({ n: await activeNow() }));
  assert.is(active!.n, 0, 'the statement no longer runs on the server');
});

test('PostgreSQL: writes turned on are committed and audited', async () => {
  if (!pgUp) return;
  assert.is((await post(`/api/db/connections/${pgId}`, { writable: true }, 'PATCH')).status, 200);
  const ins = await query(pgId, `INSERT INTO ${SCHEMA}.items (id, name) VALUES (500, 'pg write')`);
  assert.is(ins.status, 200, ins.text);
  assert.is(ins.body.command, 'INSERT');
  assert.is(ins.body.affected, 1);
  assert.is((await pgDo(`SELECT 1 FROM ${SCHEMA}.items WHERE id = 500`)).length, 1);
  const audit = await api('/api/audit?limit=50');
  assert.ok(audit.body.entries.some((e: { action: string; target: string; detail: string | null }) => e.action === 'database statement' && e.target === 'pg (postgres)' && e.detail?.includes('pg write')));
});

test('no answer held the password', () => {
  assert.ok(seen.length > 20);
  for (const text of seen) assert.not.ok(text.includes(SECRET));
});

test.run();
