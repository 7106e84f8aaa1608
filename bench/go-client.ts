// The Go client's cost (clients/go): CPU per OpenAI-compatible chat completion made through the client's recording
// Transport, against the same call through a plain http.Client, in one Go process with alternating rounds
// (bench/support/go-client-rounds), all goroutines counted (getrusage: the application's, the recording's and the
// sender's: encoding, gzip, HTTP; each traced round ends with a Flush). The calls go to the fake OpenAI server, the
// traces to a receiver speaking POST /v1/traces. Also: streamed calls (the stream teed while it is read), and CPU per
// trace recorded by hand with client.Trace, sending included.
// Usage: node dist/bench/go-client.js [calls per round] [rounds]
import { join } from 'node:path';
import { startFakeOpenAI } from '../tests/support/fake-openai.js';
import { startTraceReceiver } from '../tests/support/trace-receiver.js';
import { goSandbox, mustRun } from '../tests/support/client-toolchain.js';
import { fromRoot } from '../tests/support/paths.js';
import { median } from './support/median.js';

const CALLS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 7);

const go = goSandbox();
const fake = await startFakeOpenAI({ delayMs: 0 });
const receiver = await startTraceReceiver({ key: 'test-key' });
try {
  const bin = join(go.env.GOPATH!, 'go-client-rounds');
  await mustRun('go', ['build', '-o', bin, '.'], { cwd: fromRoot('bench/support/go-client-rounds'), env: go.env, timeoutMs: 600_000 });
  const out = await mustRun(bin, [fake.baseURL, receiver.url, String(CALLS), String(ROUNDS)], { cwd: fromRoot('bench'), timeoutMs: 1_800_000 });
  const r = JSON.parse(out) as { rounds: Record<string, number[]>; stats: Record<string, number>; errors: string[] | null };
  const line = (what: string, traced: number[], untraced: number[]): void => {
    const ratios = traced.map((t, i) => t / untraced[i]);
    console.log(`go client cpu per ${what}: ${median(traced).toFixed(0)} µs traced, ${median(untraced).toFixed(0)} µs untraced `
      + `(ratio ${median(ratios).toFixed(2)} vs untraced; +${median(traced.map((t, i) => t - untraced[i])).toFixed(0)} µs per call, all goroutines; `
      + `rounds ${ratios.map((x) => x.toFixed(2)).join(' ')})`);
  };
  line('chat completion', r.rounds.traced_us, r.rounds.untraced_us);
  line('streamed chat completion', r.rounds.stream_traced_us, r.rounds.stream_untraced_us);
  console.log(`go client Trace() by hand: ${median(r.rounds.record_us).toFixed(1)} µs CPU per trace, sending included`);
  console.log(`  (${r.stats.sent} traces sent, ${r.stats.dropped} dropped, errors ${JSON.stringify(r.errors ?? [])}; ${receiver.stored().size} stored by the receiver)`);
} finally {
  await fake.close();
  await receiver.close();
  go.cleanup();
}
