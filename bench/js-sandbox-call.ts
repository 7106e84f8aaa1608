// Benchmark: one warm call of a custom eval function in sandbox/js, as the evaluators will make it: sequential
// calls of a loaded function, each with a JSON input and a JSON result. Budget (bench/README.md): ≤ 2 ms.
//
// Baseline, in the same process and on the same inputs: the same function called directly in Node, with the same
// JSON round trip (input stringified and parsed, result stringified and parsed). The ratio is the price of the
// isolation: a child process, a fresh context per call, and the time and memory limits.
//
// Usage: node dist/bench/js-sandbox-call.js [calls per round, default 500]
import { createJsSandbox } from '../sandbox/js/index.js';
import { median } from './support/median.js';

const CALLS = Number(process.argv[2] ?? 500);
const ROUNDS = 5;

const source = `export default function (input) {
  const answer = String(input.answer).toLowerCase();
  const found = input.expected.filter((word) => answer.includes(word));
  return { score: found.length / input.expected.length, found, length: answer.length };
}`;
function direct(input: { answer: string; expected: string[] }): unknown {
  const answer = String(input.answer).toLowerCase();
  const found = input.expected.filter((word) => answer.includes(word));
  return { score: found.length / input.expected.length, found, length: answer.length };
}

const inputs = Array.from({ length: 64 }, (_, i) => ({
  answer: `Answer ${i}: Paris is the capital of France, and the Seine runs through it. `.repeat(4),
  expected: ['paris', 'france', 'seine', `missing-${i}`],
}));


async function main(): Promise<void> {
  const sandbox = await createJsSandbox();
  try {
    const fn = await sandbox.load(source, 'score-answer.js');
    for (let i = 0; i < 200; i++) await fn.call(inputs[i % inputs.length]);

    const sandboxMs: number[] = [];
    const baselineMs: number[] = [];
    let sink = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      for (let i = 0; i < CALLS; i++) {
        const r = await fn.call(inputs[i % inputs.length]);
        if (!r.ok) throw new Error(`sandbox call failed: ${r.error.reason}: ${r.error.message}`);
        sink += (r.value as { length: number }).length;
      }
      sandboxMs.push((performance.now() - t) / CALLS);

      t = performance.now();
      for (let i = 0; i < CALLS; i++) {
        const input = JSON.parse(JSON.stringify(inputs[i % inputs.length]));
        const value = JSON.parse(JSON.stringify(direct(input))) as { length: number };
        sink += value.length;
        // Same awaiting shape as the sandbox loop, so the baseline is not a tighter loop than the real thing.
        await Promise.resolve();
      }
      baselineMs.push((performance.now() - t) / CALLS);
    }
    if (sink === 0) throw new Error('nothing computed');
    const ms = median(sandboxMs);
    const base = median(baselineMs);
    console.log(`js sandbox warm call: ${ms.toFixed(3)} ms (ratio ${(ms / base).toFixed(2)} vs baseline)`);
    console.log(`  baseline (direct call + JSON round trip): ${(base * 1000).toFixed(2)} µs; budget 2 ms; rounds: ${sandboxMs.map((x) => x.toFixed(3)).join(', ')} ms`);
  } finally {
    await sandbox.close();
  }
}

await main();
