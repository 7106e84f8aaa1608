// Benchmark: the request inspector's list API (GET /api/gateway/records) at 1,000,000 stored records in SQLite,
// through a real `vigil run` (control plane, auth, query validation, the capture plugin's route) over real HTTP:
// the first page, filtered pages, and page 100 both by offset and by the `before` cursor. Baseline, in the same run
// on the same file: the bare `SELECT record FROM capture_records ORDER BY time DESC LIMIT 50` through node-sqlite3
// (the driver the store uses), and for each case its own bare SELECT (same WHERE, same order, same page), so that a
// ratio tells apart what the query costs from what the API adds. Rounds alternate API and bare; medians count.
//
// The store is filled by bench/support/records-filler.ts (capture's own row and rollup code), spread over 6.9 days
// (the default retention is 7 d), so `since=24h` holds about a seventh of it.
//
// Usage: node dist/bench/records-list.js [records, default 1000000]
//   RECORDS_LIST_DB=/path/vigil.db reuses (or creates, and keeps) a filled database file between runs.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sqlite3 from 'sqlite3';
import { freePort } from '../tests/support/net.js';
import { tempDir } from '../tests/support/tmp.js';
import { startVigil, writeConfig } from '../tests/support/vigil-process.js';
import { median } from './support/median.js';
import { fillRecordsAt } from './support/records-filler.js';

const COUNT = Number(process.argv[2] ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const TOKEN = 'bench-records-list-token';
const PAGE = 50;

const work = tempDir('vigil-bench-records-');
const file = process.env.RECORDS_LIST_DB ?? join(work.path, 'data', 'vigil.db');
mkdirSync(dirname(file), { recursive: true });

function open(path: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => { const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (err) => (err ? reject(err) : resolve(db))); });
}
function all<T>(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => db.all(sql, params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows))));
}

async function storedCount(): Promise<number> {
  if (!existsSync(file)) return 0;
  const db = await open(file);
  try {
    return (await all<{ n: number }>(db, 'SELECT count(*) AS n FROM capture_records'))[0].n;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

if ((await storedCount()) < COUNT) {
  const s = await fillRecordsAt(`sqlite:${file}`, { count: COUNT, spanMs: 6.9 * 86_400_000 });
  console.log(`  filled ${s.records} records in ${(s.ms / 1000).toFixed(1)} s (${Math.round(s.records / (s.ms / 1000))}/s)`);
}

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const config = writeConfig(work.path, `data_dir: ${work.path}/data
storage: { url: "sqlite:${file}" }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
capture: {}
rules:
  - { name: all-traffic, match: { path: /** }, labels: { tenant: header:X-Tenant-Id } }
`);
const vigil = await startVigil(config, url, { timeoutMs: 120_000 });
const db = await open(file);

interface Case { name: string; query: string; sql: string; params: unknown[] }
const records = 'capture_records';
const order = 'ORDER BY time DESC, id DESC';
const baseline: Case = { name: 'bare first page', query: '', sql: `SELECT record FROM ${records} ORDER BY time DESC LIMIT ${PAGE}`, params: [] };

async function api(query: string): Promise<{ ms: number; body: { data: { id: string }[]; next?: string | null } }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/api/gateway/records?limit=${PAGE}${query}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${text}`);
  return { ms, body: JSON.parse(text) };
}
async function bare(c: Case): Promise<number> {
  const t0 = performance.now();
  const rows = await all<{ record: string }>(db, c.sql, c.params);
  const ms = performance.now() - t0;
  if (rows.length === 0 && c.name !== 'bare first page') throw new Error(`${c.name}: the bare SELECT found nothing`);
  return ms;
}

try {
  const since = Date.now() - 86_400_000;
  // Each bare SELECT is the route's own SQL for the case (prefilters included), so its ratio is what the API adds.
  const label = (v: string) => ({ sql: `instr(labels, ?) > 0 AND json_extract(labels, '$."tenant"') = ?`, params: [`"tenant":${JSON.stringify(v)}`, v] });
  const route = (g: string) => ({ sql: 'instr(route, ?) > 0 AND EXISTS (SELECT 1 FROM json_each(route) WHERE json_each.value = ?)', params: [JSON.stringify(g), g] });
  const cases: Case[] = [
    { name: 'first page', query: '', sql: `SELECT record FROM ${records} ${order} LIMIT ${PAGE}`, params: [] },
    { name: 'filtered: status=5xx, last 24 h', query: `&status=5xx&since=${since}`, sql: `SELECT record FROM ${records} WHERE status >= 500 AND status < 600 AND time >= ? ${order} LIMIT ${PAGE}`, params: [since] },
    { name: 'filtered: label.tenant=t-19 (1 % of records)', query: '&label.tenant=t-19', sql: `SELECT record FROM ${records} WHERE ${label('t-19').sql} ${order} LIMIT ${PAGE}`, params: label('t-19').params },
    { name: 'filtered: route=/admin/** (2 %)', query: `&route=${encodeURIComponent('/admin/**')}`, sql: `SELECT record FROM ${records} WHERE ${route('/admin/**').sql} ${order} LIMIT ${PAGE}`, params: route('/admin/**').params },
    {
      name: 'filtered: status=504 + label.tenant=t-19 (rare: 43 in a million), last 24 h', query: `&status=504&label.tenant=t-19&since=${since}`,
      sql: `SELECT record FROM ${records} WHERE status = ? AND time >= ? AND ${label('t-19').sql} ${order} LIMIT ${PAGE}`, params: [504, since, ...label('t-19').params],
    },
    {
      name: 'filtered: status=504 + label.tenant=t-19, every record', query: '&status=504&label.tenant=t-19',
      sql: `SELECT record FROM ${records} WHERE status = ? AND ${label('t-19').sql} ${order} LIMIT ${PAGE}`, params: [504, ...label('t-19').params],
    },
    { name: 'page 100 by offset', query: `&offset=${99 * PAGE}`, sql: `SELECT record FROM ${records} ${order} LIMIT ${PAGE} OFFSET ${99 * PAGE}`, params: [] },
  ];
  // Page 100 by cursor: walk 99 pages the way the UI does, then check the walk against the offset page.
  const first = await api('');
  if (first.body.next !== undefined) {
    let cursor = first.body.next!;
    const seen = new Set(first.body.data.map((r) => r.id));
    for (let p = 2; p < 100; p++) {
      const page = await api(`&before=${encodeURIComponent(cursor)}`);
      for (const r of page.body.data) { if (seen.has(r.id)) throw new Error(`page ${p} repeats ${r.id}`); seen.add(r.id); }
      cursor = page.body.next!;
    }
    const [time, id] = [Number(cursor.slice(0, cursor.indexOf('.'))), cursor.slice(cursor.indexOf('.') + 1)];
    const byCursor = (await api(`&before=${encodeURIComponent(cursor)}`)).body.data.map((r) => r.id);
    const byOffset = (await api(`&offset=${99 * PAGE}`)).body.data.map((r) => r.id);
    if (JSON.stringify(byCursor) !== JSON.stringify(byOffset)) throw new Error('page 100 by cursor differs from page 100 by offset');
    cases.push({
      name: 'page 100 by cursor (before=)', query: `&before=${encodeURIComponent(cursor)}`,
      sql: `SELECT record FROM ${records} WHERE time <= ? AND (time < ? OR id < ?) ${order} LIMIT ${PAGE}`, params: [time, time, id],
    });
  }

  for (let w = 0; w < 3; w++) for (const c of [baseline, ...cases]) { await bare(c); await api(c.query); }
  const base: number[] = [];
  const times = new Map(cases.map((c) => [c.name, { api: [] as number[], bare: [] as number[] }]));
  for (let r = 0; r < ROUNDS; r++) {
    base.push(await bare(baseline));
    for (const c of cases) {
      const t = times.get(c.name)!;
      t.bare.push(await bare(c));
      t.api.push((await api(c.query)).ms);
    }
  }
  const b = median(base);
  // What any GET to the control plane costs this client: the floor under every API figure.
  const health: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    await (await fetch(`${url}/api/health`)).text();
    health.push(performance.now() - t0);
  }
  console.log(`  baseline: ${baseline.sql}: ${b.toFixed(2)} ms (node-sqlite3, same file; median of ${ROUNDS})`);
  console.log(`  floor: GET /api/health (no auth, no store): ${median(health).toFixed(2)} ms`);
  for (const c of cases) {
    const t = times.get(c.name)!;
    const a = median(t.api);
    const own = median(t.bare);
    console.log(`records list, ${c.name}: ${a.toFixed(2)} ms (ratio ${(a / b).toFixed(2)} vs baseline; ${(a / own).toFixed(2)} vs its own bare SELECT at ${own.toFixed(2)} ms)`);
  }
  console.log(`  ${COUNT} records in SQLite; GET over HTTP with keep-alive, the body read whole`);
} finally {
  db.close();
  await vigil.stop();
  if (!process.env.RECORDS_LIST_DB) work.cleanup();
}
