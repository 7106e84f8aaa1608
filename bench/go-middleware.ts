// Benchmark: CPU per request of a Go net/http app with the Vigil Go middleware (middleware/go) on, against the same
// app with it off, each in a process of its own under the same paced load (undici, 16 connections): the method of
// bench/middleware-cpu.ts for Express. An "on" round includes flushing: every request's record is governed in the
// app's process and shipped (to a sink standing in for the agent) within the round it belongs to. Rounds alternate
// off / on; the ratio is the median of the pairs. Also printed: the part of the "on" CPU spent governing (after the
// responses), so the request path's own cost is the rest.
// Scenarios: a captured route (1 KB JSON body, three redactions, a label) and a restricted route (decision only).
// Usage: node dist/bench/go-middleware.js [seconds per round, default 3]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './support/median.js';
import { pairedRounds, pacedLoad, SCENARIOS, startRecordSink, writeBenchConfig } from './support/middleware-bench.js';
import { fromRoot } from '../tests/support/paths.js';

const seconds = Number(process.argv[2] ?? 3);
const ROUNDS = 5;
const CONNECTIONS = 16;
const RATE = 1_500;

const { dir, configPath } = writeBenchConfig('vigil-go-mw-bench-');

const binary = join(dir, 'benchapp');
const goEnv = { ...process.env, GOCACHE: join(dir, 'cache'), GOPATH: join(dir, 'gopath'), GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
const built = spawnSync('go', ['build', '-o', binary, './internal/benchapp'], { cwd: fromRoot('middleware/go'), env: goEnv, encoding: 'utf8' });
if (built.status !== 0) throw new Error(`go build failed: ${built.stderr}`);

const sink = await startRecordSink();
const agentUrl = sink.url;

class App {
  private constructor(private readonly child: ChildProcess, readonly port: number, private readonly control: number) {}
  static async start(mode: 'on' | 'off'): Promise<App> {
    const child = spawn(binary, [mode, configPath, agentUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((r) => child.stdout!.once('data', (d: Buffer) => r(d.toString())));
    const [port, control] = line.trim().split(' ').map(Number);
    return new App(child, port, control);
  }
  async ask<T>(what: string): Promise<T> {
    const res = await fetch(`http://127.0.0.1:${this.control}/${what}`);
    return (await res.json()) as T;
  }
  stop(): void { this.child.kill(); }
}

const load = (port: number, path: string, body: string | undefined) => pacedLoad({ port, path, body, rate: RATE, seconds, connections: CONNECTIONS });

async function round(app: App, path: string, body: string | undefined, flush: boolean) {
  const before = await app.ask<{ cpu: number; governMs: number }>('cpu');
  const n = await load(app.port, path, body);
  if (flush) await app.ask('flush');
  const after = await app.ask<{ cpu: number; governMs: number }>('cpu');
  return { perRequest: (after.cpu - before.cpu) / n, governPerRequest: ((after.governMs - before.governMs) * 1000) / n };
}

const off = await App.start('off');
const on = await App.start('on');
try {
  for (const s of SCENARIOS) {
    const { offCpu, onCpu, govern, ratios } = await pairedRounds(ROUNDS, (isOn) => round(isOn ? on : off, s.path, s.body, isOn));
    console.log(`go middleware cpu per ${s.name}: ${median(onCpu).toFixed(0)} µs (ratio ${median(ratios).toFixed(2)} vs the app without it at ` +
      `${median(offCpu).toFixed(0)} µs; median of ${ROUNDS} paired rounds at ${RATE} req/s; pairs ${ratios.map((r) => r.toFixed(2)).join(' ')})`);
    console.log(`  of which governing, after the response (wall time of the governing goroutines): ${median(govern).toFixed(1)} µs`);
  }
  console.log(`  (${sink.batches()} batches shipped to the sink)`);
} finally {
  off.stop();
  on.stop();
  sink.close();
  rmSync(dir, { recursive: true, force: true });
}
