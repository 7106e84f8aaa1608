// Benchmark: LLM trace items accepted and stored per second by `POST /v1/traces` of a real `vigil run` (the LLM lane's
// worker threads parse, check, redact and store each batch before its 202), in batches of 100 items of about 1 KB,
// on SQLite, and on PostgreSQL when one answers. Budget (bench/README.md): ≥ 40,000 items/s on SQLite and
// ≤ 25 µs of CPU per item, all threads.
//
// Baselines, in the same run: a bare Koa route in its own process that reads the same body, parses it and answers 202
// (rounds alternate; the median round of each counts); and the storage floor: the same rows, built once, inserted
// into the same table on the same backend by this process, 100 to a statement, one transaction each, as the lane
// does. CPU per item (all threads, from /proc) is printed for each: on two shared vCPUs it says more than throughput.
//
// Usage: node dist/bench/llm-ingest.js [seconds per round, default 5] [sqlite|postgres|both, default both]
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import type { SqlValue } from '@vigil/plugin-sdk';
import { llmMigrations } from '../plugins/llm/migrations.js';
import { TRACE_COLUMNS } from '../plugins/llm/trace-record.js';
import { openStore } from '../runtime/store/index.js';
import { freshPostgresSchema, postgresAvailable } from '../tests/support/postgres.js';
import { median } from './support/median.js';

const SECONDS = Number(process.argv[2] ?? 5);
const BACKENDS = (process.argv[3] ?? 'both') === 'both' ? ['sqlite', 'postgres'] : [process.argv[3]];
const ROUNDS = 3;
const BATCH = 100;
const CONCURRENCY = 8;
const KEY = 'bench-key-0123456789abcdef';
const root = fileURLToPath(new URL('../..', import.meta.url));

function item(i: number): Record<string, unknown> {
  const base = {
    model: 'gpt-4o-mini-2024-07-18', name: 'chat', latency_ms: 300 + (i % 200), tokens: { input: 420, output: 96 },
    prompt_template: { name: `support-${i % 3}`, raw: `You are a support agent for ACME. Answer in ${i % 3 === 0 ? 'English' : 'French'}.\n{{question}}` },
    input: [{ role: 'system', content: 'You are a support agent for ACME.' }, { role: 'user', content: `Where is my order #${1000 + i}? My email is user${i}@example.com` }],
    output: { role: 'assistant', content: 'Your order shipped yesterday and should arrive within two business days.' },
    user_id: `user-${i % 50}`, session_id: `s-${i % 200}`, tags: ['bench'],
  };
  const pad = 1024 - JSON.stringify(base).length - 30;
  return { ...base, metadata: { note: 'x'.repeat(Math.max(0, pad)) } };
}
const body = Buffer.from(JSON.stringify({ traces: Array.from({ length: BATCH }, (_, i) => item(i)) }));

/** utime + stime of a process, all threads, in µs. */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1e6) / 100;
}

async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never became healthy`);
}

/** Sends batches flat out for `seconds` over CONCURRENCY connections; returns accepted items/s and CPU µs per item. */
async function load(port: number, pid: number, headers: Record<string, string>): Promise<{ perSecond: number; cpuPerItem: number }> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONCURRENCY });
  let accepted = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const cpu0 = cpuMicros(pid);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < deadline) {
      const res = await pool.request({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json', ...headers }, body });
      const answer = await res.body.json() as { accepted: number };
      if (res.statusCode !== 202) throw new Error(`answered ${res.statusCode}: ${JSON.stringify(answer)}`);
      accepted += answer.accepted;
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMicros(pid) - cpu0;
  await pool.close();
  return { perSecond: accepted / seconds, cpuPerItem: cpu / accepted };
}

/**
 * p50/p99 of `POST /v1/traces` at `perSecond` items (batches sent on a fixed schedule, not back to back), over
 * `seconds`: the latency a client sees at a given load (measured at half the maximum rate).
 */
async function paced(port: number, headers: Record<string, string>, perSecond: number, seconds: number): Promise<{ p50: number; p99: number; late: number }> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 32 });
  const every = (1000 * BATCH) / perSecond;
  const latencies: number[] = [];
  const inflight: Promise<void>[] = [];
  const t0 = performance.now();
  let late = 0;
  for (let k = 0; k * every < seconds * 1000; k++) {
    const due = t0 + k * every;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else if (wait < -every) late++;
    inflight.push((async () => {
      const started = performance.now();
      const res = await pool.request({ method: 'POST', path: '/v1/traces', headers: { 'content-type': 'application/json', ...headers }, body });
      await res.body.dump();
      // From when the batch was due: a send delayed by a busy client counts against the server too (no coordinated omission).
      latencies.push(performance.now() - Math.min(started, due));
    })());
  }
  await Promise.all(inflight);
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { p50: latencies[Math.floor(latencies.length * 0.5)], p99: latencies[Math.floor(latencies.length * 0.99)], late };
}

const bare = fork(fileURLToPath(new URL('./support/bare-ingest-server.js', import.meta.url)), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const barePort = await new Promise<number>((resolve) => bare.once('message', (m) => resolve((m as { port: number }).port)));
try {
  for (const backend of BACKENDS) {
    let storage = '';
    let drop = async () => {};
    if (backend === 'postgres') {
      if (!(await postgresAvailable('bench llm-ingest'))) continue;
      const schema = await freshPostgresSchema('bench_llm_ingest');
      storage = `storage: { url: "${schema.url}" }\n`;
      drop = () => schema.drop();
    }
    try {
      await measure(backend, storage);
      await storageFloor(backend, backend === 'postgres' ? storage.slice(storage.indexOf('"') + 1, storage.lastIndexOf('"')) : undefined);
    } finally {
      await drop();
    }
  }
} finally {
  bare.kill('SIGKILL');
}

async function measure(backend: string, storage: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-llm-'));
  let vigil: ChildProcess | undefined;
  try {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const file = join(dir, 'vigil.yaml');
    writeFileSync(file, `data_dir: ${dir}/data\nlog: { level: warn }\ncontrol_plane: { listen: 127.0.0.1:${port}, token: bench-token }\n${storage}`
      + `llm:\n  projects:\n    - { name: bench, key: ${KEY} }\n`);
    vigil = spawn(process.execPath, ['--max-semi-space-size=64', join(root, 'bin/vigil.js'), 'run', '-config', file], { stdio: ['ignore', 'ignore', 'inherit'] });
    await waitHealthy(`http://127.0.0.1:${port}`);

    const ours: { perSecond: number; cpuPerItem: number }[] = [];
    const base: { perSecond: number; cpuPerItem: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      base.push(await load(barePort, bare.pid!, {}));
      ours.push(await load(port, vigil.pid!, { 'x-service-project-key': KEY }));
    }
    const v = median(ours.map((o) => o.perSecond));
    const b = median(base.map((o) => o.perSecond));
    const vc = median(ours.map((o) => o.cpuPerItem));
    const bc = median(base.map((o) => o.cpuPerItem));
    console.log(`llm items accepted and stored (${backend}): ${Math.round(v)} items/s (ratio ${(v / b).toFixed(2)} vs a bare Koa route parsing the same body: ${Math.round(b)} items/s)`);
    console.log(`llm ingest CPU per item (${backend}): ${vc.toFixed(1)} µs, all threads (ratio ${(vc / bc).toFixed(2)} vs the bare route: ${bc.toFixed(1)} µs)`);
    const half = v / 2;
    const bareAtHalf = await paced(barePort, {}, half, SECONDS);
    const oursAtHalf = await paced(port, { 'x-service-project-key': KEY }, half, SECONDS);
    console.log(`llm ingest p99 at half the maximum rate (${backend}, ${Math.round(half)} items/s): ${oursAtHalf.p99.toFixed(1)} ms, p50 ${oursAtHalf.p50.toFixed(1)} ms `
      + `(ratio ${(oursAtHalf.p99 / bareAtHalf.p99).toFixed(2)} vs the bare route at the same rate: p99 ${bareAtHalf.p99.toFixed(1)} ms)`);
  } finally {
    vigil?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The floor under the lane's figure: rows shaped as the lane stores the benchmark's items (the same columns, a trace of
 * the same size), inserted 100 to a statement, one transaction a batch, `ON CONFLICT DO NOTHING RETURNING id`; this
 * process's CPU per row, all threads (node-sqlite3 works on libuv's threads).
 */
async function storageFloor(backend: string, url: string | undefined): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-floor-'));
  const store = await openStore(url ?? `sqlite:${join(dir, 'floor.db')}`);
  try {
    const llm = store.forPlugin('llm');
    await llm.migrate(llmMigrations);
    const trace = JSON.stringify({ ...item(0), id: '00000000-0000-7000-8000-000000000000', prompt_template: { name: 'support-0', version: 1, hash: 'x'.repeat(64) } });
    let n = 0;
    const row = (): SqlValue[] => [`00000000-0000-7000-8000-${String(++n).padStart(12, '0')}`, Date.now(), 'p1', 'gpt-4o-mini-2024-07-18', 'ok', 300,
      420, 96, 516, 0.0001, 'support-0', 1, 'user-1', 's-1', '["bench"]', trace];
    const one = `(${TRACE_COLUMNS.map(() => '?').join(', ')})`;
    const sql = `INSERT INTO llm_traces (${TRACE_COLUMNS.join(', ')}) VALUES ${Array(BATCH).fill(one).join(', ')} ON CONFLICT DO NOTHING RETURNING id`;
    const batch = async () => { await llm.transaction((tx) => tx.query(sql, Array.from({ length: BATCH }, row).flat())); };
    for (let i = 0; i < 20; i++) await batch();
    const cpu0 = cpuMicros(process.pid);
    const t0 = performance.now();
    let rows = 0;
    while (performance.now() - t0 < SECONDS * 1000) { await batch(); rows += BATCH; }
    const perRow = (cpuMicros(process.pid) - cpu0) / rows;
    console.log(`llm storage floor (${backend}): ${perRow.toFixed(1)} µs CPU per row, ${Math.round(rows / ((performance.now() - t0) / 1000))} rows/s (the same rows inserted bare, 100 to a statement)`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
