// Benchmark: the cost of one round-robin claim (runtime/jobs/round-robin-claim.ts) behind one group's backlog of
// 10,000 due jobs, against the same claim behind a backlog of 10 (baseline, same store, same run). Both queues also
// hold 20 other groups with one due job each and 20 whose jobs wait an hour, so every claim walks groups and passes
// over some. A claim's cost should not grow with one group's backlog: the ratio should stay near 1.
//
// Each round claims CLAIMS times per queue, alternating the two queues; after each claim its jobs go back to
// pending (untimed), so the backlogs stay as they were. Claims of 1 (a worker with one free slot) and of 4 (the eval
// queue's default concurrency). Wall time per claim, the database's work included; SQLite, and PostgreSQL when
// reachable.
//
// Usage: node dist/bench/job-claim.js [claims per round, default 300]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureJobTables } from '../runtime/jobs/migrations.js';
import { JobTable } from '../runtime/jobs/job-table.js';
import { openStore, type StoreBackend } from '../runtime/store/index.js';
import { freshPostgresSchema, postgresUrl } from '../tests/support/postgres.js';
import { median } from './support/median.js';

const CLAIMS = Number(process.argv[2] ?? 300);
const ROUNDS = 5;
const BACKLOG = 10_000;
const BASELINE = 10;

async function fill(table: JobTable, queue: string, backlog: number): Promise<void> {
  const now = Date.now();
  const job = (group: string, runAt?: number) => ({ payload: '{}', group, ...(runAt ? { runAt } : {}) });
  await table.enqueueMany(queue, Array.from({ length: backlog }, () => job('project-big')), 5);
  await table.enqueueMany(queue, Array.from({ length: 20 }, (_, i) => job(`project-due-${i}`)), 5);
  await table.enqueueMany(queue, Array.from({ length: 20 }, (_, i) => job(`project-later-${i}`, now + 3_600_000)), 5);
}

/** µs per claim of `limit`, over `CLAIMS` claims, each claim's jobs put back afterwards. */
async function claims(store: StoreBackend, table: JobTable, queue: string, limit: number): Promise<number> {
  let spent = 0;
  for (let i = 0; i < CLAIMS; i++) {
    const t0 = performance.now();
    const jobs = await table.claim(queue, 'bench', limit, 60_000);
    spent += performance.now() - t0;
    if (jobs.length !== limit) throw new Error(`a claim of ${limit} took ${jobs.length}`);
    await store.run(`UPDATE vigil_jobs SET state = 'pending', attempt = 0, locked_by = NULL, locked_until = NULL WHERE id IN (${jobs.map(() => '?').join(', ')})`, jobs.map((j) => j.id));
  }
  return (spent / CLAIMS) * 1000;
}

async function measure(name: string, store: StoreBackend): Promise<void> {
  await ensureJobTables(store);
  const table = new JobTable(store);
  await fill(table, 'bench.big', BACKLOG);
  await fill(table, 'bench.small', BASELINE);
  for (const limit of [1, 4]) {
    const big: number[] = [];
    const small: number[] = [];
    await claims(store, table, 'bench.big', limit);
    await claims(store, table, 'bench.small', limit);
    for (let r = 0; r < ROUNDS; r++) {
      big.push(await claims(store, table, 'bench.big', limit));
      small.push(await claims(store, table, 'bench.small', limit));
    }
    const b = median(big);
    const s = median(small);
    console.log(`job-claim ${name}, claim of ${limit}, one group of ${BACKLOG.toLocaleString('en')}: ${b.toFixed(0)} µs (ratio ${(b / s).toFixed(2)} vs a group of ${BASELINE}: ${s.toFixed(0)} µs)`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-claim-'));
try {
  const sqlite = await openStore(`sqlite:${join(dir, 'vigil.db')}`);
  await measure('sqlite', sqlite);
  await sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const schema = await freshPostgresSchema('bench_job_claim').catch((err: Error) => {
  console.log(`job-claim postgres: skipped, ${postgresUrl} unreachable (${err.message})`);
  return undefined;
});
if (schema) {
  try {
    const pg = await openStore(schema.url);
    await measure('postgres', pg);
    await pg.close();
  } finally {
    await schema.drop();
  }
}
