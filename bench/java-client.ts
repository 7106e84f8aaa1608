// The Java client's cost (clients/java): CPU per OpenAI-compatible chat completion made inside a Span that
// openAiChat fills from the request and the answer, against the same call made plain, in one JVM with alternating
// rounds after a warm-up (bench/support/JavaClientRounds.java), every thread counted (the sender's encoding, gzip and
// HTTP included: each traced round ends with a flush). The calls go to the fake OpenAI server, the traces to a
// receiver speaking POST /v1/traces. Also: CPU per trace recorded by hand, sending included.
// Usage: node dist/bench/java-client.js [calls per round] [rounds]
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOpenAI } from '../tests/support/fake-openai.js';
import { startTraceReceiver } from '../tests/support/trace-receiver.js';
import { mustRun } from '../tests/support/client-toolchain.js';
import { fromRoot } from '../tests/support/paths.js';
import { tempDir } from '../tests/support/tmp.js';
import { median } from './support/median.js';

const CALLS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 7);

const javaFiles = (dir: string): string[] => readdirSync(dir).flatMap((n) => {
  const p = join(dir, n);
  return statSync(p).isDirectory() ? javaFiles(p) : n.endsWith('.java') ? [p] : [];
});

const out = tempDir('vigil-java-bench-');
const fake = await startFakeOpenAI({ delayMs: 0 });
const receiver = await startTraceReceiver({ key: 'test-key' });
try {
  await mustRun('javac', ['--release', '17', '-d', out.path, ...javaFiles(fromRoot('clients/java/src/main/java'))], { cwd: out.path, timeoutMs: 600_000 });
  const printed = await mustRun('java', ['-cp', out.path, fromRoot('bench/support/JavaClientRounds.java'), fake.baseURL, receiver.url, String(CALLS), String(ROUNDS)],
    { cwd: out.path, timeoutMs: 1_800_000 });
  const r = JSON.parse(printed) as { untraced_us: number[]; traced_us: number[]; record_us: number[]; stats: Record<string, number>; errors: string[] };
  const ratios = r.traced_us.map((t, i) => t / r.untraced_us[i]);
  console.log(`java client cpu per chat completion: ${median(r.traced_us).toFixed(0)} µs traced, ${median(r.untraced_us).toFixed(0)} µs untraced `
    + `(ratio ${median(ratios).toFixed(2)} vs untraced; +${median(r.traced_us.map((t, i) => t - r.untraced_us[i])).toFixed(0)} µs per call, all threads; `
    + `rounds ${ratios.map((x) => x.toFixed(2)).join(' ')})`);
  console.log(`java client span by hand: ${median(r.record_us).toFixed(1)} µs CPU per trace, sending included`);
  console.log(`  (${r.stats.sent} traces sent, ${r.stats.dropped} dropped, errors ${JSON.stringify(r.errors)}; ${receiver.stored().size} stored by the receiver)`);
} finally {
  await fake.close();
  await receiver.close();
  out.cleanup();
}
