// Benchmark: `insertMany` of governed-record-shaped rows (12 columns) into the store. Budget (bench/README.md): governed
// records stored ≥ 20,000 per second.
//
// Baseline, in the same process, on the same rows and the same store handle: one INSERT per row, all inside one
// transaction (the usual way to batch without multi-row statements). Rounds alternate baseline and insertMany into
// fresh tables; the best round of each counts. PostgreSQL runs when reachable (a throwaway schema), else it is
// reported as skipped.
//
// Usage: node dist/bench/store-insert.js [rows per round, default 50000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, type StoreBackend } from '../runtime/store/index.js';

const ROWS = Number(process.argv[2] ?? 50_000);
const ROUNDS = 3;
const COLUMNS = ['id', 'ts', 'method', 'host', 'path', 'status', 'duration_ms', 'req_bytes', 'res_bytes', 'labels', 'redactions', 'body'];

const rows = Array.from({ length: ROWS }, (_, i) => [
  i + 1, 1_763_700_000_000 + i, i % 5 === 0 ? 'POST' : 'GET', 'api.example.com', `/v1/orders/${i % 977}/items`, 200 + (i % 3) * 100,
  (i % 250) / 3, 512 + (i % 64), 2048 + (i % 128), '{"tenant":"t-7","route":"orders"}', i % 4, '{"id":"ord_123","email":"[REDACTED]","total":12.5}',
]);

function ddl(table: string): string {
  return `CREATE TABLE ${table} (id BIGINT PRIMARY KEY, ts BIGINT NOT NULL, method TEXT, host TEXT, path TEXT, status INTEGER,
    duration_ms DOUBLE PRECISION, req_bytes INTEGER, res_bytes INTEGER, labels TEXT, redactions INTEGER, body TEXT)`;
}

async function rowByRow(store: StoreBackend, table: string, data: typeof rows): Promise<number> {
  await store.run(ddl(table));
  const sql = `INSERT INTO ${table} (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
  const t0 = performance.now();
  await store.transaction(async (tx) => { for (const row of data) await tx.run(sql, row); });
  return data.length / ((performance.now() - t0) / 1000);
}

async function bulk(store: StoreBackend, table: string, data: typeof rows): Promise<number> {
  await store.run(ddl(table));
  const t0 = performance.now();
  const n = await store.insertMany(table, COLUMNS, data);
  if (n !== data.length) throw new Error(`insertMany wrote ${n} of ${data.length} rows`);
  return data.length / ((performance.now() - t0) / 1000);
}

async function measure(name: string, store: StoreBackend, data: typeof rows): Promise<void> {
  let base = 0;
  let best = 0;
  for (let r = 0; r < ROUNDS; r++) {
    base = Math.max(base, await rowByRow(store, `bench_rows_${r}`, data));
    best = Math.max(best, await bulk(store, `bench_bulk_${r}`, data));
  }
  console.log(`store insertMany ${name}: ${Math.round(best)} rows/s (ratio ${(best / base).toFixed(2)} vs row-by-row inserts in one transaction)`);
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-store-'));
try {
  const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
  try { await measure('sqlite', store, rows); } finally { await store.close(); }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const pgUrl = process.env.VIGIL_BENCH_POSTGRES_URL ?? process.env.VIGIL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_store_insert_${process.pid}`;
const admin = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 2000 });
let reachable = true;
try {
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
} catch (err) {
  reachable = false;
  console.log(`store insertMany postgres: skipped (PostgreSQL unreachable at ${pgUrl}: ${(err as Error).message})`);
}
if (reachable) {
  try {
    const url = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const store = await openStore(url);
    // Row-by-row on PostgreSQL is one round trip per row; fewer rows keep the baseline short.
    try { await measure('postgres', store, rows.slice(0, Math.min(ROWS, 20_000))); } finally { await store.close(); }
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
  }
}
await admin.end().catch(() => {});
