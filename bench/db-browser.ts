// Benchmark: the database browser's first page of a 1,000,000-row table, through the API (`GET
// /api/db/connections/:id/rows?limit=100`, HTTP and the worker thread included), and the same rows through the
// statement editor (`SELECT * FROM big` cut at a row cap of 100), for a SQLite file, and for PostgreSQL and MariaDB
// when they answer.
//
// Baseline, same run, rounds alternated: the bare query on an open connection of the same driver in this process
// (`SELECT * FROM big ORDER BY id LIMIT 100`). The browser opens the SQLite file for each request (a worker task), so a
// second baseline, open + query + close, shows what that part costs.
//
// Usage: node dist/bench/db-browser.js [rounds, default 40]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { startTestRuntime } from '@vigil/plugin-sdk/testing';
import { median } from './support/median.js';

const ROUNDS = Number(process.argv[2] ?? 40);
const WARMUP = 5;
const ROWS = 1_000_000;
const PG_URL = process.env.VIGIL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `bench_db_${process.pid}`;
const MARIA = { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test' };

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-db-'));
const file = join(dir, 'big.db');

function openDb(path: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => { const db = new sqlite3.Database(path, mode, (e) => (e ? reject(e) : resolve(db))); });
}
const exec = (db: sqlite3.Database, sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (e) => (e ? reject(e) : resolve())));
const all = (db: sqlite3.Database, sql: string) => new Promise<unknown[]>((resolve, reject) => db.all(sql, (e, rows) => (e ? reject(e) : resolve(rows))));
const closeDb = (db: sqlite3.Database) => new Promise<void>((resolve) => db.close(() => resolve()));

const made = await openDb(file, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE);
await exec(made, `CREATE TABLE big (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value REAL, note TEXT);
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${ROWS})
  INSERT INTO big SELECT i, 'name ' || i, i * 0.5, 'a note of some length for row ' || i FROM s;`);
await closeDb(made);

let pgReady = false;
try {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA};
    CREATE TABLE ${SCHEMA}.big (id integer PRIMARY KEY, name text NOT NULL, value double precision, note text);
    INSERT INTO ${SCHEMA}.big SELECT g, 'name ' || g, g * 0.5, 'a note of some length for row ' || g FROM generate_series(1, ${ROWS}) g;
    ANALYZE ${SCHEMA}.big;`);
  await c.end();
  pgReady = true;
} catch (err) {
  console.log(`db-browser: PostgreSQL skipped (${(err as Error).message})`);
}

let mariaReady = false;
try {
  const c = await mysql.createConnection({ ...MARIA, connectTimeout: 2000 });
  await c.query(`CREATE DATABASE ${SCHEMA}`);
  await c.query(`CREATE TABLE ${SCHEMA}.big (id INT PRIMARY KEY, name VARCHAR(64) NOT NULL, value DOUBLE, note VARCHAR(128))`);
  await c.query(`INSERT INTO ${SCHEMA}.big SELECT seq, CONCAT('name ', seq), seq * 0.5, CONCAT('a note of some length for row ', seq) FROM seq_1_to_${ROWS}`);
  await c.end();
  mariaReady = true;
} catch (err) {
  console.log(`db-browser: MariaDB skipped (${(err as Error).message})`);
}

const rt = await startTestRuntime({ plugins: [], config: { data_dir: join(dir, 'data'), dbbrowser: { roots: [dir] } } });
const timed = async (fn: () => Promise<unknown>): Promise<number> => { const t = performance.now(); await fn(); return performance.now() - t; };
const getOk = async (path: string, init?: RequestInit) => {
  const res = await rt.fetch(path, init);
  const text = await res.text();
  if (res.status !== 200 && res.status !== 201) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as { id: string; rows: unknown[] };
};
const add = (body: unknown) => getOk('/api/db/connections', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const editor = (id: string, sql: string) => getOk(`/api/db/connections/${id}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sql, max_rows: 100 }) });

function report(kind: string, t: Record<string, number[]>, base: string): void {
  const b = median(t[base]);
  for (const [name, xs] of Object.entries(t)) {
    if (name === base) continue;
    console.log(`db-browser ${kind} ${name}: ${median(xs).toFixed(2)} ms (ratio ${(median(xs) / b).toFixed(2)} vs the bare query at ${b.toFixed(2)} ms)`);
  }
}

try {
  // SQLite.
  const lite = await add({ name: 'big', kind: 'sqlite', path: file });
  const open = await openDb(file, sqlite3.OPEN_READONLY);
  const t: Record<string, number[]> = { bare: [], 'bare with open': [], 'first page': [], 'editor 100 rows': [] };
  for (let r = 0; r < ROUNDS + WARMUP; r++) {
    const m = {
      bare: await timed(() => all(open, 'SELECT * FROM big ORDER BY id LIMIT 100')),
      'bare with open': await timed(async () => { const db = await openDb(file, sqlite3.OPEN_READONLY); await all(db, 'SELECT * FROM big ORDER BY id LIMIT 100'); await closeDb(db); }),
      'first page': await timed(async () => { const p = await getOk(`/api/db/connections/${lite.id}/rows?schema=main&table=big&limit=100`); if (p.rows.length !== 100) throw new Error('short page'); }),
      'editor 100 rows': await timed(() => editor(lite.id, 'SELECT * FROM big')),
    };
    if (r >= WARMUP) for (const [k, v] of Object.entries(m)) t[k].push(v);
  }
  await closeDb(open);
  report('sqlite', t, 'bare');

  if (pgReady) {
    const conn = await add({ name: 'pg', kind: 'postgres', host: '127.0.0.1', port: 5432, database: 'test', user: 'postgres' });
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    const p: Record<string, number[]> = { bare: [], 'first page': [], 'editor 100 rows': [] };
    for (let r = 0; r < ROUNDS + WARMUP; r++) {
      const m = {
        bare: await timed(() => client.query(`SELECT * FROM ${SCHEMA}.big ORDER BY id LIMIT 100`)),
        'first page': await timed(() => getOk(`/api/db/connections/${conn.id}/rows?schema=${SCHEMA}&table=big&limit=100`)),
        'editor 100 rows': await timed(() => editor(conn.id, `SELECT * FROM ${SCHEMA}.big`)),
      };
      if (r >= WARMUP) for (const [k, v] of Object.entries(m)) p[k].push(v);
    }
    await client.end();
    report('postgres', p, 'bare');
  }

  if (mariaReady) {
    const conn = await add({ name: 'maria', kind: 'mysql', host: MARIA.host, port: MARIA.port, database: MARIA.database, user: MARIA.user });
    const client = await mysql.createConnection(MARIA);
    const m: Record<string, number[]> = { bare: [], 'first page': [], 'editor 100 rows': [] };
    for (let r = 0; r < ROUNDS + WARMUP; r++) {
      const x = {
        bare: await timed(() => client.query(`SELECT * FROM ${SCHEMA}.big ORDER BY id LIMIT 100`)),
        'first page': await timed(() => getOk(`/api/db/connections/${conn.id}/rows?schema=${SCHEMA}&table=big&limit=100`)),
        'editor 100 rows': await timed(() => editor(conn.id, `SELECT * FROM ${SCHEMA}.big`)),
      };
      if (r >= WARMUP) for (const [k, v] of Object.entries(x)) m[k].push(v);
    }
    await client.end();
    report('mariadb', m, 'bare');
  }
} finally {
  await rt.stop();
  if (pgReady) {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await c.end();
  }
  if (mariaReady) {
    const c = await mysql.createConnection(MARIA);
    await c.query(`DROP DATABASE IF EXISTS ${SCHEMA}`);
    await c.end();
  }
  rmSync(dir, { recursive: true, force: true });
}
