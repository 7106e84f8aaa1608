// Benchmark: eval jobs per second, and per core, when the provider answers at once: the eval stage's own machinery
// (the durable queue on SQLite, the rate slot, the definition read, the judge's HTTP call with submit_score, the
// result stored and published), with the rate set far above what the machine can do. The 60-per-minute default
// limits a project, not the machinery.
//
// The judge is the local OpenAI-compatible fake (tests/support/fake-openai.ts) in a child process answering every
// call with a score and no delay, so its CPU is not counted. Traces come from memory (the `llm` service's `trace`
// reads one row by key in the real thing).
//
// Baseline, in the same process against the same provider: the same number of judge calls (askJudge: rubric sent,
// tool call parsed) at the same concurrency, without queue or store. Per core = evals per CPU second of this process.
//
// Usage: node dist/bench/eval-throughput.js [evals per round, default 2000]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PersistedTrace } from '@vigil/plugin-sdk';
import { DefinitionStore } from '../plugins/evaluators/definitions.js';
import { EvalEnqueuer } from '../plugins/evaluators/enqueue-hook.js';
import { EvalJobs, type EvalJobPayload } from '../plugins/evaluators/eval-job.js';
import { evaluate } from '../plugins/evaluators/evaluate.js';
import { GoldenSets } from '../plugins/evaluators/golden-sets.js';
import { askJudge, type ResolvedProvider } from '../plugins/evaluators/judge-client.js';
import { evaluatorsMigrations } from '../plugins/evaluators/migrations.js';
import { RateLimiter } from '../plugins/evaluators/rate-limit.js';
import { ResultStore } from '../plugins/evaluators/results-store.js';
import { EmbeddingCache } from '../plugins/evaluators/embedding-cache.js';
import { createJobQueues } from '../runtime/jobs/index.js';
import { openStore } from '../runtime/store/index.js';
import { median } from './support/median.js';

const N = Number(process.argv[2] ?? 2000);
const CONCURRENCY = 8;
const ROUNDS = 3;
const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; } };

async function startFakeJudge(): Promise<{ url: string; stop(): void }> {
  const fake = new URL('../tests/support/fake-openai.js', import.meta.url).href;
  const child = spawn(process.execPath, ['--input-type=module', '-e',
    `import { startFakeOpenAI } from ${JSON.stringify(fake)}; const f = await startFakeOpenAI({ delayMs: 0, chat: () => ({ score: 80, reasoning: 'fine' }) }); console.log(f.baseURL);`],
  { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
  return { url, stop: () => child.kill() };
}

const traces: PersistedTrace[] = Array.from({ length: N }, (_, i) => ({
  id: `0190b000-0000-7000-8000-${String(i).padStart(12, '0')}`, created_at: 1_763_700_000_000 + i, project_id: 'bench', model: 'gpt-4o-mini',
  status: 'ok', latency_ms: 300, cost_usd: 0.0001, template: 'support', version: 1,
  trace: {
    input: [{ role: 'system', content: 'You are a support agent for ACME.' }, { role: 'user', content: `Where is my order #${1000 + i}?` }],
    output: { role: 'assistant', content: `Order #${1000 + i} left our warehouse yesterday and arrives on Friday.` },
    metadata: { expected: 'It arrives on Friday.' },
  },
}));
const RUBRIC = 'Question: {{input}}\nAnswer: {{output}}\nExpected: {{expected}}\nIs the answer correct?';

const cpuMs = (start: NodeJS.CpuUsage) => { const u = process.cpuUsage(start); return (u.user + u.system) / 1000; };

async function evalRound(provider: ResolvedProvider): Promise<{ wallMs: number; cpuMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-evals-'));
  const backend = await openStore(`sqlite:${join(dir, 'vigil.db')}`);
  try {
    const store = backend.forPlugin('evaluators');
    await store.migrate(evaluatorsMigrations);
    const definitions = new DefinitionStore(store);
    await definitions.create('bench', { id: 'judge', name: 'judge', type: 'llm_judge', settings: { provider: 'judge', rubric: RUBRIC } });
    const byId = new Map(traces.map((t) => [t.id, t]));
    const queues = createJobQueues(backend, { owner: 'bench', log: quiet });
    const deps = {
      sandboxes: { loadFunction: () => Promise.reject(new Error('unused')) },
      golden: new GoldenSets(store),
      judge: { provider: () => provider, price: () => null },
      similarity: { embedder: () => Promise.reject(new Error('unused')), cosine: () => 0, cache: new EmbeddingCache(store), price: () => null },
    };
    let done = 0;
    let finished!: () => void;
    const all = new Promise<void>((r) => { finished = r; });
    const jobs = new EvalJobs({
      llm: { trace: async (_p, id) => byId.get(id) }, definitions, results: new ResultStore(store), rate: new RateLimiter(store, () => 6_000_000),
      evaluate: (def, trace) => evaluate(deps, def, trace), maxAttempts: 3, log: quiet,
      publish: () => { if (++done === N) finished(); },
      counters: { result() {}, deferred() {} },
    });
    const queue = queues.queue<EvalJobPayload>('evaluators.eval', (job) => jobs.run(job), { concurrency: CONCURRENCY, pollMs: 50 });
    await new EvalEnqueuer(definitions, queue, { enqueued() {}, sampledOut() {} }).onPersisted(traces);
    const cpu = process.cpuUsage();
    const t = performance.now();
    await queues.start();
    await all;
    const out = { wallMs: performance.now() - t, cpuMs: cpuMs(cpu) };
    await queues.stop();
    return out;
  } finally {
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function baselineRound(provider: ResolvedProvider): Promise<{ wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < N) {
      const trace = traces[next++].trace;
      const reply = await askJudge(provider, 'gpt-4o-mini', `${RUBRIC}\n${JSON.stringify(trace.input)}\n${JSON.stringify(trace.output)}`, 0);
      if (reply.kind !== 'tool') throw new Error('no tool call');
    }
  }));
  return { wallMs: performance.now() - t, cpuMs: cpuMs(cpu) };
}

async function main(): Promise<void> {
  const fake = await startFakeJudge();
  const provider: ResolvedProvider = { name: 'judge', baseUrl: fake.url, model: 'gpt-4o-mini', apiKey: 'sk-bench', timeoutMs: 10_000 };
  try {
    await baselineRound(provider);
    const evals: { wallMs: number; cpuMs: number }[] = [];
    const bases: { wallMs: number; cpuMs: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      evals.push(await evalRound(provider));
      bases.push(await baselineRound(provider));
    }
    const perCore = (x: { cpuMs: number }) => N / (x.cpuMs / 1000);
    const perSec = (x: { wallMs: number }) => N / (x.wallMs / 1000);
    const e = median(evals.map(perCore));
    const b = median(bases.map(perCore));
    console.log(`eval throughput (llm_judge, instant provider): ${Math.round(e)} evals/s per core (ratio ${(e / b).toFixed(2)} vs baseline)`);
    console.log(`  wall: ${Math.round(median(evals.map(perSec)))} evals/s at concurrency ${CONCURRENCY}; baseline (bare judge calls): ${Math.round(b)} calls/s per core, ${Math.round(median(bases.map(perSec)))}/s wall; `
      + `CPU per eval ${(median(evals.map((x) => x.cpuMs / N)) * 1000).toFixed(0)} µs against ${(median(bases.map((x) => x.cpuMs / N)) * 1000).toFixed(0)} µs`);
  } finally {
    fake.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
