// Benchmark: CPU per request of a FastAPI app (uvicorn) with vigil-fastapi's VigilMiddleware on, against the same
// app with it off, each in a Python process of its own under the same paced load (undici, 8 connections), the
// method of middleware-cpu.ts (Express). CPU is the process's (getrusage: every thread, so governing and shipping
// count). An "on" round ends with a flush: every request's record is governed and shipped (to a sink standing in for
// the agent) within the round it belongs to. Rounds alternate off / on; the ratio is the median of the pairs.
// Scenarios: a captured route (1 KB JSON body, three redactions, a label) and a restricted route (decision only); and
// the middleware's own CPU per call on the restricted route, timed in-process around an app that does nothing (the
// paired ratio of a cost that small is the machine's noise).
// Usage: node dist/bench/fastapi-middleware.js [seconds per round, default 2]
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { PYTHON } from '../tests/support/conformance/drivers.js';
import { fromRoot } from '../tests/support/paths.js';
import { median } from './support/median.js';
import { pairedRounds, pacedLoad, SCENARIOS, startRecordSink, writeBenchConfig } from './support/middleware-bench.js';

const seconds = Number(process.argv[2] ?? 2);
const ROUNDS = 11;
const CONNECTIONS = 8;
// A FastAPI app under uvicorn costs about a millisecond of CPU per request: a rate one core holds with room to spare.
const RATE = 250;

const { configPath } = writeBenchConfig('vigil-fastapi-bench-');

const sink = await startRecordSink();
const agentUrl = sink.url;

class App {
  private constructor(private readonly child: ChildProcess, private readonly lines: AsyncIterator<string>, readonly port: number) {}
  static async start(mode: 'on' | 'off'): Promise<App> {
    const child = spawn(PYTHON, [fromRoot('bench/support/fastapi-app-child.py'), mode, configPath, agentUrl], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    const rl: Interface = createInterface({ input: child.stdout! });
    const lines = rl[Symbol.asyncIterator]();
    const first = (await lines.next()).value as string;
    return new App(child, lines, Number(first.split(' ')[1]));
  }
  async ask<T>(command: string): Promise<T> {
    this.child.stdin!.write(`${command}\n`);
    return JSON.parse((await this.lines.next()).value as string) as T;
  }
  stop(): void { this.child.stdin!.end('stop\n'); }
}

const load = (port: number, path: string, body: string | undefined) => pacedLoad({ port, path, body, rate: RATE, seconds, connections: CONNECTIONS });

type Cpu = { cpu_us: number; govern_ms: number };
async function round(app: App, path: string, body: string | undefined, flush: boolean) {
  const before = await app.ask<Cpu>('cpu');
  const n = await load(app.port, path, body);
  if (flush) await app.ask('flush');
  const after = await app.ask<Cpu>('cpu');
  return { perRequest: (after.cpu_us - before.cpu_us) / n, governPerRequest: ((after.govern_ms - before.govern_ms) * 1000) / n };
}

const off = await App.start('off');
const on = await App.start('on');
try {
  for (const s of SCENARIOS) {
    const { offCpu, onCpu, govern, ratios } = await pairedRounds(ROUNDS, (isOn) => round(isOn ? on : off, s.path, s.body, isOn));
    console.log(`fastapi middleware cpu per ${s.name}: ${median(onCpu).toFixed(0)} µs (ratio ${median(ratios).toFixed(2)} vs the app without it at ` +
      `${median(offCpu).toFixed(0)} µs; median of ${ROUNDS} paired rounds at ${RATE} req/s; ratios ${ratios.map((x) => x.toFixed(2)).join(' ')})`);
    console.log(`  of which governing (its thread's CPU, after the response): ${median(govern).toFixed(1)} µs; the request path, copies and shipping: ` +
      `${(median(onCpu) - median(offCpu) - median(govern)).toFixed(1)} µs`);
  }
  const own = await on.ask<{ us: number }>('restricted');
  console.log(`fastapi middleware cpu of its own call on a restricted route (decision cached, no app): ${own.us.toFixed(2)} µs`);
  console.log(`  (${sink.batches()} batches shipped to the sink)`);
} finally {
  off.stop();
  on.stop();
  sink.close();
}
