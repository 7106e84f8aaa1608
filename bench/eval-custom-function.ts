// Benchmark: one warm custom_function eval, as the eval job makes it (plugins/evaluators/custom-function.ts): the
// function looked up by its source's hash, called in sandbox/js with the stored trace, its answer read as a score.
// Budget (bench/README.md): ≤ 2 ms per eval.
//
// Baseline, in the same process on the same traces: the sandbox's own call of the same loaded function (what
// bench/js-sandbox-call.ts measures). The ratio is the evaluator's overhead over the sandbox.
//
// Usage: node dist/bench/eval-custom-function.js [evals per round, default 500]
import type { PersistedTrace, Sandboxes } from '@vigil/plugin-sdk';
import { runFunction } from '../plugins/evaluators/custom-function.js';
import type { EvalDefinition } from '../plugins/evaluators/types.js';
import { createJsSandbox } from '../sandbox/js/index.js';
import { median } from './support/median.js';

const EVALS = Number(process.argv[2] ?? 500);
const ROUNDS = 5;

const source = `export default (trace) => {
  const answer = JSON.stringify(trace.output).toLowerCase();
  const expected = String(trace.metadata?.expected ?? '').toLowerCase().split(/\\s+/);
  const found = expected.filter((w) => answer.includes(w));
  return { score: found.length / expected.length, reason: found.length + ' of ' + expected.length + ' expected words' };
}`;

const traces: PersistedTrace[] = Array.from({ length: 64 }, (_, i) => ({
  id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`, created_at: 1_763_700_000_000 + i, project_id: 'bench', model: 'gpt-4o-mini',
  status: 'ok', latency_ms: 300, cost_usd: 0.0001, template: 'support', version: 1,
  trace: {
    id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`, model: 'gpt-4o-mini', status: 'ok', tokens: { input: 420, output: 96 },
    input: [{ role: 'system', content: 'You are a support agent for ACME.' }, { role: 'user', content: `Where is my order #${1000 + i}?` }],
    output: { role: 'assistant', content: `Order #${1000 + i} left our warehouse in Paris yesterday and arrives on Friday. `.repeat(3) },
    metadata: { expected: 'order paris friday', customer: { tier: i % 2 ? 'gold' : 'basic' } }, tags: ['prod'],
  },
}));

const definition: EvalDefinition = {
  id: 'bench', project_id: 'bench', name: 'bench', type: 'custom_function', sample_rate: 1, template: null, versions: null, on_missing_output: 'skip',
  settings: { source }, source: 'store', created_at: 0, updated_at: 0,
};

async function main(): Promise<void> {
  const sandbox = await createJsSandbox();
  const sandboxes: Sandboxes = { loadFunction: (s, f) => sandbox.load(s, f) };
  try {
    const fn = await sandbox.load(source, `eval-${definition.id}.js`);
    for (let i = 0; i < 200; i++) await runFunction(sandboxes, definition, traces[i % traces.length]);
    const evalMs: number[] = [];
    const callMs: number[] = [];
    let sink = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      for (let i = 0; i < EVALS; i++) {
        const out = await runFunction(sandboxes, definition, traces[i % traces.length]);
        if (out.status !== 'ok') throw new Error(`eval failed: ${out.reason}`);
        sink += out.score!;
      }
      evalMs.push((performance.now() - t) / EVALS);
      t = performance.now();
      for (let i = 0; i < EVALS; i++) {
        const r = await fn.call(traces[i % traces.length].trace);
        if (!r.ok) throw new Error(`call failed: ${r.error.message}`);
        sink += (r.value as { score: number }).score;
      }
      callMs.push((performance.now() - t) / EVALS);
    }
    if (sink === 0) throw new Error('nothing scored');
    const ms = median(evalMs);
    const base = median(callMs);
    console.log(`eval custom_function warm: ${ms.toFixed(3)} ms (ratio ${(ms / base).toFixed(2)} vs baseline)`);
    console.log(`  baseline (the sandbox's own call): ${base.toFixed(3)} ms; overhead ${((ms - base) * 1000).toFixed(1)} µs per eval; budget 2 ms; rounds: ${evalMs.map((x) => x.toFixed(3)).join(', ')} ms`);
  } finally {
    await sandbox.close();
  }
}

await main();
