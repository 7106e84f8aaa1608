// Benchmark: LLM trace items persisted per second by the persist stage (prompt version lookup, redaction through the
// governance policy's governJson with every detector on, the stored trace built and inserted idempotently), in jobs of
// 100 items of about 1 KB, two jobs at a time (the default concurrency). Budget (issue 23): ≥ 5,000 items/s on SQLite;
// PostgreSQL reported.
//
// Baseline, in the same process and on the same backend: `insertMany` of the same rows, already built (no redaction,
// no versions), into the same table with the same indexes. Rounds alternate on fresh databases; the median counts.
//
// Usage: node dist/bench/llm-persist.js [items per round, default 20000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QueuedJob, Store } from '@vigil/plugin-sdk';
import { governJson } from '../policies/govern-json.js';
import { effectiveSettings } from '../plugins/llm/effective-settings.js';
import { EvalHooks } from '../plugins/llm/eval-hooks.js';
import type { PersistPayload, QueuedItem } from '../plugins/llm/ingest-pipeline.js';
import { llmMigrations } from '../plugins/llm/migrations.js';
import { PersistStage } from '../plugins/llm/persist-stage.js';
import { PromptVersions } from '../plugins/llm/prompt-versions.js';
import { storedTrace, TRACE_COLUMNS, traceRow } from '../plugins/llm/trace-record.js';
import type { LlmProject } from '../plugins/llm/types.js';
import { openStore } from '../runtime/store/index.js';
import { freshPostgresSchema } from '../tests/support/postgres.js';
import { median } from './support/median.js';

const N = Number(process.argv[2] ?? 20_000);
const JOB = 100;
const CONCURRENCY = 2;
const ROUNDS = 3;
const project: LlmProject = { id: 'bench', name: 'bench', source: 'store', settings: effectiveSettings({}, {}, 5 * 1024 * 1024) };
const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; } };

function items(round: number): QueuedItem[] {
  return Array.from({ length: N }, (_, i) => {
    const base = {
      id: `0190${String(round).padStart(4, '0')}-0000-7000-8000-${String(i).padStart(12, '0')}`, created_at: 1_763_700_000_000 + i,
      model: 'gpt-4o-mini-2024-07-18', name: 'chat', latency_ms: 300 + (i % 200), tokens: { input: 420, output: 96 }, cost_usd: 0.0001206,
      prompt_template: { name: `support-${i % 3}`, raw: `You are a support agent for ACME. Answer in ${i % 3 === 0 ? 'English' : 'French'}.\n{{question}}` },
      input: [{ role: 'system', content: 'You are a support agent for ACME.' }, { role: 'user', content: `Where is my order #${1000 + i}? My email is user${i}@example.com` }],
      output: { role: 'assistant', content: 'Your order shipped yesterday and should arrive within two business days.' },
      user_id: `user-${i % 50}`, session_id: `s-${i % 200}`, tags: ['bench'],
    };
    return { ...base, metadata: { note: 'x'.repeat(Math.max(0, 1024 - JSON.stringify(base).length - 30)) } };
  });
}

async function persisted(store: Store, data: QueuedItem[]): Promise<number> {
  const stage = new PersistStage({
    store, log: quiet, project: async () => project, versions: new PromptVersions(store, () => {}), governJson,
    hooks: new EvalHooks(quiet, () => {}), publish: () => {},
    counters: { stored() {}, duplicate() {}, dead() {}, projectGone() {} },
  });
  const jobs: QueuedJob<PersistPayload>[] = [];
  // Each job's payload as the queue hands it over: parsed from its stored JSON text.
  for (let i = 0; i < data.length; i += JOB) jobs.push({ id: i, queue: 'llm.persist', attempt: 1, payload: { project: 'bench', items: data.slice(i, i + JOB) } });
  const texts = jobs.map((j) => JSON.stringify(j.payload));
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < jobs.length) {
      const k = next++;
      await stage.run({ ...jobs[k], payload: JSON.parse(texts[k]) as PersistPayload });
    }
  }));
  return data.length / ((performance.now() - t0) / 1000);
}

async function bare(store: Store, data: QueuedItem[]): Promise<number> {
  const rows = data.map((item) => {
    const template = { name: item.prompt_template!.name, version: 1, hash: 'h' };
    return traceRow('bench', item, storedTrace(item, item, template), template);
  });
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += JOB) await store.insertMany(store.table('traces'), TRACE_COLUMNS, rows.slice(i, i + JOB));
  return data.length / ((performance.now() - t0) / 1000);
}

async function measure(name: string, fresh: () => Promise<{ store: Store; close(): Promise<void> }>): Promise<void> {
  const ours: number[] = [];
  const base: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const data = items(r);
    for (const [run, out] of [[bare, base], [persisted, ours]] as const) {
      const db = await fresh();
      try { out.push(await run(db.store, data)); } finally { await db.close(); }
    }
  }
  const v = median(ours);
  const b = median(base);
  console.log(`llm items persisted ${name}: ${Math.round(v)} items/s (ratio ${(v / b).toFixed(2)} vs bare insertMany of the same rows: ${Math.round(b)} rows/s)`);
}

async function open(url: string) {
  const backend = await openStore(url);
  const store = backend.forPlugin('llm');
  await store.migrate(llmMigrations);
  return { store, close: () => backend.close() };
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-persist-'));
try {
  let n = 0;
  await measure('sqlite', () => open(`sqlite:${join(dir, `db-${++n}.db`)}`));
  const pgUp = await import('pg').then(async ({ default: pg }) => {
    const c = new pg.Client({ connectionString: process.env.VIGIL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test', connectionTimeoutMillis: 2000 });
    try { await c.connect(); return true; } catch { return false; } finally { await c.end().catch(() => {}); }
  });
  if (!pgUp) console.log('llm items persisted postgres: skipped (PostgreSQL unreachable)');
  else {
    const schemas: { drop(): Promise<void> }[] = [];
    try {
      await measure('postgres', async () => {
        const s = await freshPostgresSchema(`bench_persist_${++n}`);
        schemas.push(s);
        return open(s.url);
      });
    } finally { for (const s of schemas) await s.drop(); }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
