// Benchmark: CPU per request of an Express app with @vigil/express on, against the same app with it off, each in a
// process of its own under the same paced load (undici, 16 connections). An "on" round includes flushing: every
// request's record is governed in-process and shipped (to a sink standing in for the agent) within the round it
// belongs to. Rounds alternate off / on; the ratio is the median of the pairs. Also printed: the part of the "on"
// CPU spent governing (on the event loop, after the responses), so the request path's own cost (decide + copies +
// hand-off) is the rest.
// Scenarios: a captured route (1 KB JSON body, three redactions, a label) and a restricted route (decision only).
// Usage: node dist/bench/middleware-cpu.js [seconds per round, default 3]
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { median } from './support/median.js';

const seconds = Number(process.argv[2] ?? 3);
const ROUNDS = 5;
const CONNECTIONS = 16;
const RATE = 1_500;

const dir = mkdtempSync(join(tmpdir(), 'vigil-mw-bench-'));
const configPath = join(dir, 'vigil.yaml');
writeFileSync(configPath, `rules:
  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant }
    redact: { headers: [Authorization], query_params: [token] }
  - name: orders
    match: { path: /api/orders/** }
    redact: { json_fields: [$.card.number, $.customer.email] }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body, headers]
`);
const ORDER = JSON.stringify({ customer: { email: 'a@example.com', name: 'Ada' }, card: { number: '4111111111111111' }, items: Array.from({ length: 12 }, (_, i) => ({ sku: `SKU-${i}`, qty: i, note: 'x'.repeat(40) })) });

// The agent's stand-in: reads each POST and answers as the ingest route does.
let shipped = 0;
const sink = createServer((req, res) => {
  let n = 0;
  req.on('data', (c: Buffer) => { n += c.length; });
  req.on('end', () => { shipped++; res.writeHead(200, { 'content-type': 'application/json' }).end(`{"stored":${n > 0 ? 1 : 0}}`); });
});
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
const agentUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;

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

/** Paced load: RATE requests per second for `seconds`, over CONNECTIONS connections. Returns the count answered. */
async function load(port: number, path: string, body: string | undefined): Promise<number> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS });
  const total = Math.round(RATE * seconds);
  const start = performance.now();
  let done = 0;
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const res = await pool.request({ path, method: body ? 'POST' : 'GET', body, headers: { 'content-type': 'application/json', 'x-tenant': 'acme', authorization: 'Bearer x' } });
      await res.body.dump();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  await pool.close();
  return done;
}

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
  for (const s of [
    { name: 'captured request (1 KB JSON, 3 redactions, a label)', path: '/api/orders/17?token=t', body: ORDER },
    { name: 'restricted request', path: '/admin/users/17', body: undefined },
  ]) {
    await round(off, s.path, s.body, false);
    await round(on, s.path, s.body, true);
    const offCpu: number[] = [];
    const onCpu: number[] = [];
    const govern: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      offCpu.push((await round(off, s.path, s.body, false)).perRequest);
      const o = await round(on, s.path, s.body, true);
      onCpu.push(o.perRequest);
      govern.push(o.governPerRequest);
    }
    const ratios = onCpu.map((v, i) => v / offCpu[i]);
    console.log(`express middleware cpu per ${s.name}: ${median(onCpu).toFixed(0)} µs (ratio ${median(ratios).toFixed(2)} vs the app without it at ` +
      `${median(offCpu).toFixed(0)} µs; median of ${ROUNDS} paired rounds at ${RATE} req/s)`);
    console.log(`  of which governing, after the response: ${median(govern).toFixed(1)} µs; the request path, copies and shipping: ` +
      `${(median(onCpu) - median(offCpu) - median(govern)).toFixed(1)} µs`);
  }
  console.log(`  (${shipped} batches shipped to the sink)`);
} finally {
  off.stop();
  on.stop();
  sink.close();
}
