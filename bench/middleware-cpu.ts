// Benchmark: CPU per request of an Express app with @vigil/express on, against the same app with it off, each in a
// process of its own under the same paced load (undici, 16 connections). An "on" round includes flushing: every
// request's record is governed in-process and shipped (to a sink standing in for the agent) within the round it
// belongs to. Rounds alternate off / on; the ratio is the median of the pairs. Also printed: the part of the "on"
// CPU spent governing (on the event loop, after the responses), so the request path's own cost (decide + copies +
// hand-off) is the rest.
// Scenarios: a captured route (1 KB JSON body, three redactions, a label) and a restricted route (decision only).
// Usage: node dist/bench/middleware-cpu.js [seconds per round, default 3]
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './support/median.js';
import { pairedRounds, pacedLoad, SCENARIOS, startRecordSink, writeBenchConfig } from './support/middleware-bench.js';

const seconds = Number(process.argv[2] ?? 3);
const ROUNDS = 5;
const CONNECTIONS = 16;
const RATE = 1_500;

const { configPath } = writeBenchConfig('vigil-mw-bench-');

const sink = await startRecordSink();
const agentUrl = sink.url;

class App {
  private constructor(private readonly child: ChildProcess, readonly port: number) {}
  static async start(mode: 'on' | 'off'): Promise<App> {
    const child = fork(fileURLToPath(new URL('./support/middleware-app-child.js', import.meta.url)), [mode, configPath, agentUrl], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const port = await new Promise<number>((r) => child.once('message', (m) => r((m as { port: number }).port)));
    return new App(child, port);
  }
  ask<T>(what: string, key: string): Promise<T> {
    return new Promise((r) => {
      const on = (m: Record<string, unknown>) => { if (key in m) { this.child.off('message', on); r(m as T); } };
      this.child.on('message', on);
      this.child.send(what);
    });
  }
  stop(): void { this.child.send('stop'); }
}

const load = (port: number, path: string, body: string | undefined) => pacedLoad({ port, path, body, rate: RATE, seconds, connections: CONNECTIONS });

async function round(app: App, path: string, body: string | undefined, flush: boolean) {
  const before = await app.ask<{ cpu: number; stats: { governMs: number } | null }>('cpu', 'cpu');
  const n = await load(app.port, path, body);
  if (flush) await app.ask('flush', 'flushed');
  const after = await app.ask<{ cpu: number; stats: { governMs: number } | null }>('cpu', 'cpu');
  return { perRequest: (after.cpu - before.cpu) / n, governPerRequest: after.stats ? ((after.stats.governMs - before.stats!.governMs) * 1000) / n : 0 };
}

const off = await App.start('off');
const on = await App.start('on');
try {
  for (const s of SCENARIOS) {
    const { offCpu, onCpu, govern, ratios } = await pairedRounds(ROUNDS, (isOn) => round(isOn ? on : off, s.path, s.body, isOn));
    console.log(`express middleware cpu per ${s.name}: ${median(onCpu).toFixed(0)} µs (ratio ${median(ratios).toFixed(2)} vs the app without it at ` +
      `${median(offCpu).toFixed(0)} µs; median of ${ROUNDS} paired rounds at ${RATE} req/s)`);
    console.log(`  of which governing, after the response: ${median(govern).toFixed(1)} µs; the request path, copies and shipping: ` +
      `${(median(onCpu) - median(offCpu) - median(govern)).toFixed(1)} µs`);
  }
  console.log(`  (${sink.batches()} batches shipped to the sink)`);
} finally {
  off.stop();
  on.stop();
  sink.close();
}
