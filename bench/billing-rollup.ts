// Benchmark: what the billing rollup adds to storing traces. The trace writer (plugins/llm/lane/trace-writer.ts)
// inserts a batch of 100 rows and, in the same transaction, upserts the daily usage rollup (one row per trace day of
// the batch); the baseline is the same INSERT of the same rows, in a transaction of its own, without the rollup.
// Rounds alternate on one SQLite file (and PostgreSQL when it answers); CPU time of this process per row is the
// figure (the database's own work is in-process on SQLite), with wall time beside it.
//
// Usage: node dist/bench/billing-rollup.js [batches per round, default 200]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqlValue, Store } from '@vigil/plugin-sdk';
import { TraceWriter } from '../plugins/llm/lane/trace-writer.js';
import type { PreparedTrace } from '../plugins/llm/lane/prepare-trace.js';
import { llmMigrations } from '../plugins/llm/migrations.js';
import { TRACE_COLUMNS } from '../plugins/llm/trace-record.js';
import type { LlmProject } from '../plugins/llm/types.js';
import { openStore } from '../runtime/store/index.js';
import { freshPostgresSchema, postgresAvailable } from '../tests/support/postgres.js';
import { median } from './support/median.js';

const BATCHES = Number(process.argv[2] ?? 200);
const BATCH = 100;
const ROUNDS = 5;
const DAY = 86_400_000;
const project = { id: 'bench', name: 'bench' } as LlmProject;

/** A batch whose traces fall on two days, as a client's backlog across midnight does. */
function batch(now: number): PreparedTrace[] {
  return Array.from({ length: BATCH }, (_, i) => {
    const v: Record<string, SqlValue> = {
      id: randomUUID(), created_at: now - (i % 2) * DAY, project_id: project.id, model: 'gpt-4o-mini', status: 'ok', latency_ms: 300,
      input_tokens: 420, output_tokens: 96, total_tokens: 516, cost_usd: 0.00012, template: null, version: null, user_id: null,
      session_id: null, tags: '[]', trace: '{"id":"x","output":{"role":"assistant","content":"Your order shipped yesterday."}}',
    };
    const row = TRACE_COLUMNS.map((c) => v[c]);
    return { item: { id: v.id }, row, ref: { id: v.id } } as unknown as PreparedTrace;
  });
}

async function bare(store: Store, rows: PreparedTrace[]): Promise<void> {
  const one = `(${TRACE_COLUMNS.map(() => '?').join(', ')})`;
  await store.transaction((tx) => tx.query(
    `INSERT INTO ${store.table('traces')} (${TRACE_COLUMNS.join(', ')}) VALUES ${rows.map(() => one).join(', ')} ON CONFLICT DO NOTHING RETURNING id`,
    rows.flatMap((p) => p.row)));
}

async function round(run: (rows: PreparedTrace[]) => Promise<unknown>): Promise<{ cpuUs: number; wallUs: number }> {
  const batches = Array.from({ length: BATCHES }, () => batch(Date.now()));
  const cpu = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (const b of batches) await run(b);
  const wall = Number(process.hrtime.bigint() - t0) / 1000;
  const used = process.cpuUsage(cpu);
  const rows = BATCHES * BATCH;
  return { cpuUs: (used.user + used.system) / rows, wallUs: wall / rows };
}

async function measure(name: string, url: string): Promise<void> {
  const backend = await openStore(url);
  try {
    const store = backend.forPlugin('llm');
    await store.migrate(llmMigrations);
    const writer = new TraceWriter(store);
    const withRollup: { cpuUs: number; wallUs: number }[] = [];
    const without: { cpuUs: number; wallUs: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      without.push(await round((rows) => bare(store, rows)));
      withRollup.push(await round((rows) => writer.write(project, rows, [], Date.now())));
    }
    const cpu = median(withRollup.map((x) => x.cpuUs));
    const cpuBase = median(without.map((x) => x.cpuUs));
    const wall = median(withRollup.map((x) => x.wallUs));
    const wallBase = median(without.map((x) => x.wallUs));
    console.log(`traces stored with the billing rollup (${name}): ${cpu.toFixed(1)} µs CPU per row (ratio ${(cpu / cpuBase).toFixed(2)} vs the bare insert: ${cpuBase.toFixed(1)} µs); `
      + `${wall.toFixed(1)} µs wall per row (ratio ${(wall / wallBase).toFixed(2)} vs ${wallBase.toFixed(1)} µs)`);
  } finally {
    await backend.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-rollup-'));
try {
  await measure('sqlite', `sqlite:${join(dir, 'vigil.db')}`);
  if (await postgresAvailable('billing-rollup')) {
    const schema = await freshPostgresSchema('bench_rollup');
    try { await measure('postgres', schema.url); } finally { await schema.drop(); }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
