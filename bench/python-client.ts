// The Python client's cost (clients/python, vigil-llm): CPU per openai chat completion traced through `wrap_openai`,
// against the same call untraced, in the same Python process and alternating rounds (bench/support/
// python-client-rounds.py), all threads counted (the application's and the client's sender thread: encoding, gzip,
// HTTP). The calls go through the openai stand-in (httpx, as openai-python does) to the fake OpenAI server; the traces
// to a receiver speaking POST /v1/traces. Also: CPU per trace recorded by hand with `record()`, sending included.
// Usage: node dist/bench/python-client.js [calls per round] [rounds]
import { spawn } from 'node:child_process';
import { startFakeOpenAI } from '../tests/support/fake-openai.js';
import { startTraceReceiver } from '../tests/support/trace-receiver.js';
import { PYTHON } from '../tests/support/conformance/drivers.js';
import { fromRoot } from '../tests/support/paths.js';
import { median } from './support/median.js';

const CALLS = Number(process.argv[2] ?? 400);
const ROUNDS = Number(process.argv[3] ?? 7);

const fake = await startFakeOpenAI({ delayMs: 0 });
const receiver = await startTraceReceiver({ key: 'test-key' });
try {
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(PYTHON, [fromRoot('bench/support/python-client-rounds.py'), fake.baseURL, receiver.url, String(CALLS), String(ROUNDS)],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d) => { text += d; });
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`python exited ${code}`))));
  });
  const r = JSON.parse(out) as { untraced_us: number[]; traced_us: number[]; record_us: number[]; stats: Record<string, number>; errors: string[] };
  const ratios = r.traced_us.map((t, i) => t / r.untraced_us[i]);
  const added = r.traced_us.map((t, i) => t - r.untraced_us[i]);
  console.log(`python client cpu per chat completion: ${median(r.traced_us).toFixed(0)} µs traced, ${median(r.untraced_us).toFixed(0)} µs untraced `
    + `(ratio ${median(ratios).toFixed(2)} vs untraced; +${median(added).toFixed(0)} µs per call, all threads; rounds ${ratios.map((x) => x.toFixed(2)).join(' ')})`);
  console.log(`python client record() by hand: ${median(r.record_us).toFixed(1)} µs CPU per trace, sending included`);
  console.log(`  (${r.stats.sent} traces sent, ${r.stats.dropped} dropped, errors ${JSON.stringify(r.errors)}; ${receiver.stored().size} stored by the receiver)`);
} finally {
  await fake.close();
  await receiver.close();
}
