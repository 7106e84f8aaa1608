// Benchmark: gateway throughput against a bare undici proxy. Budgets (bench/README.md): on a restricted route ≥ 0.90 ×
// the bare proxy; with full capture of a 1 KB JSON body and three redactions, reported (on a small machine the
// ratio measures the cores the telemetry lane takes; gateway-cpu.ts holds full capture to its budget per request).
//
// Each proxy runs in a process of its own (support/proxy-process.ts: in one process they would share a V8 heap, and
// the bare proxy would collect part of the gateway's garbage), each a node:http server in front of an undici Pool
// with the same options, on the same upstream. The bare one forwards (hop-by-hop fields dropped, streaming both
// ways) and does nothing else.
// The gateway is the real runtime (proxy, capture with its governance workers and SQLite store), started from a config
// file as `vigil run` starts it. The upstream runs in a child process (this file with --role=load). The load comes from
// wrk when it is installed (`apt-get install wrk`): written in C, it leaves the CPU to what is measured, as a load
// generator on another machine would. Without wrk, the child generates the load with undici, which on a 2-core machine
// takes about a core of its own and so weighs on both sides of the ratio. Every line says which one ran.
// Both warm up for 5 s first (JIT), then rounds alternate bare / gateway; after each gateway round the telemetry
// lane settles its backlog (counted in the gateway's CPU), so none of its work falls into a bare round. The ratio is
// the median over the pairs of rounds.
// A third scenario, with no budget, splits the full-capture cost: the same route on a gateway whose telemetry lane
// sheds nearly every exchange (capture.queue 1), so only the traffic lane's own capture work is left.
// Each scenario also prints how the proxy's CPU splits: the event loop's own (the traffic lane) against all threads
// (the telemetry lane's workers and SQLite's thread pool besides). On a machine where the workers share the cores
// with the load and the upstream, the throughput ratio pays for all of it, and the event loop's cost per request
// rises too (it wakes for fewer events at a time), so neither figure alone predicts a machine with spare cores.
//
// This process should run with the V8 flags `vigil run` serves with (runtime/cli/v8-flags.ts), as `npm run bench`
// starts it, and the proxies' processes inherit them; run without them, both proxies collect garbage more often than
// a served gateway, and the harness says so.
//
// Also exported: the harness, for gateway-latency.ts and the other gateway benchmarks.
// Usage: node --max-semi-space-size=64 dist/bench/gateway-throughput.js [seconds per round, default 3]
import { execFile, execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Pool, type Dispatcher } from 'undici';
import { Runtime } from '../app/index.js';
import { missingFlags } from '../runtime/cli/v8-flags.js';
import { freePort } from '../tests/support/net.js';
import { median } from './support/median.js';
import { ProxyProcess, type TelemetryLaneCounts } from './support/proxy-process.js';

export interface LoadSpec {
  port: number; method: 'GET' | 'POST'; path: string; body?: string; concurrency: number; seconds: number;
  /**
   * Paced load: each connection waits a random 0 to 2 × this many milliseconds between a response and its next
   * request, so the rate is about concurrency / (pacing + latency) and stays below saturation. Without it, each
   * connection sends its next request as soon as the last one ended (closed loop, saturating).
   */
  pacingMs?: number;
}
export interface LoadResult { requests: number; errors: number; rps: number; p50: number; p99: number }

/** 1 KB of order JSON with a card, a CVC and an IBAN for the three redactions. */
export const ORDER_JSON = JSON.stringify({
  order: { id: 'ord_12345', items: Array.from({ length: 6 }, (_, i) => ({ sku: `SKU-${1000 + i}`, qty: i + 1, price: 9.99 + i, name: `Item number ${i}` })) },
  card: { number: '4111111111111111', cvc: '123', holder: 'Ada Lovelace', expiry: '12/29' },
  billing: { iban: 'DE89370400440532013000', street: '1 Analytical Engine Way', city: 'London', zip: 'N1 9GU' },
  note: 'x'.repeat(180),
});

export const RULES = [
  { name: 'everything', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant-Id' } },
  { name: 'orders', match: { path: '/api/orders/**' }, redact: { json_fields: ['$.card.number', '$.*.cvc', '$.**.iban'] } },
  { name: 'internal', match: { path: '/internal/**' }, restrict: ['request_body', 'response_body', 'headers'] },
];
export const RESTRICTED_PATH = '/internal/items/42';
export const CAPTURED_PATH = '/api/orders/ord_12345';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']);
const POOL_CONNECTIONS = 128;

/** The baseline: a node:http server piping to an undici Pool and back, nothing else. */
export async function startBareProxy(upstreamPort: number): Promise<{ port: number; close(): Promise<void> }> {
  const pool = new Pool(`http://127.0.0.1:${upstreamPort}`, { connections: POOL_CONNECTIONS });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const headers: string[] = [];
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i].toLowerCase())) headers.push(raw[i], raw[i + 1]);
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    let resume: (() => void) | null = null;
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abort) { res.on('close', () => { if (!res.writableFinished) abort(); }); },
      onHeaders(status, rawHeaders, resumeFn, statusText) {
        resume = resumeFn;
        const out: string[] = [];
        for (let i = 0; i < rawHeaders.length; i += 2) {
          const name = rawHeaders[i].toString('latin1');
          if (!HOP_BY_HOP.has(name.toLowerCase())) out.push(name, rawHeaders[i + 1].toString('latin1'));
        }
        res.writeHead(status, statusText || undefined, out);
        return true;
      },
      onData(chunk) {
        if (res.write(chunk)) return true;
        res.once('drain', () => resume?.());
        return false;
      },
      onComplete() { res.end(); },
      onError() { if (res.headersSent) res.destroy(); else { res.statusCode = 502; res.end(); } },
    };
    pool.dispatch({ path: req.url!, method: req.method as Dispatcher.HttpMethod, headers, body: hasBody ? req : null }, handler);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    async close() { server.closeAllConnections(); server.close(); await pool.close(); },
  };
}

/** A gateway under test, in this process. */
export interface BenchGateway {
  port: number;
  /**
   * Its Prometheus text, rendered in this process. Not fetched from /metrics: the first fetch in a process loads
   * undici's fetch machinery, and promoting what that leaves cost the next measured round's scavenges 10-14 ms.
   */
  metricsText(): string;
  stop(): Promise<void>;
}

/**
 * The gateway under test: the real runtime (`vigil run`'s, started from a config file in a throwaway data
 * directory), the policy of RULES above (or `rules`), capture with its defaults (or `capture`).
 */
export async function startGateway(
  upstreamPort: number, rules: unknown[] = RULES, capture?: Record<string, unknown>,
): Promise<BenchGateway> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-gateway-'));
  const file = join(dataDir, 'vigil.json');
  writeFileSync(file, JSON.stringify({
    data_dir: dataDir,
    control_plane: { listen: '127.0.0.1:0', token: randomBytes(24).toString('base64url') },
    service: { upstream: `http://127.0.0.1:${upstreamPort}`, listen: `127.0.0.1:${port}`, max_connections: POOL_CONNECTIONS },
    rules, ...(capture ? { capture } : {}),
  }));
  const runtime = await Runtime.start(file, { env: process.env, logWrite: () => {}, announce: () => {} }).catch((err: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });
  return {
    port,
    metricsText: () => runtime.metrics.expose(),
    async stop() {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The load and upstream child: answers `{ run: LoadSpec }` messages with a LoadResult. */
export class LoadProcess {
  private constructor(private readonly child: ChildProcess, readonly upstreamPort: number) {}

  static async start(): Promise<LoadProcess> {
    const missing = missingFlags();
    if (missing.length) console.log(`note: without vigil run's V8 flags (${missing.join(' ')}); npm run bench passes them`);
    const child = fork(fileURLToPath(import.meta.url), ['--role=load'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { upstreamPort: number }).upstreamPort));
      child.once('exit', (code) => reject(new Error(`load process exited with ${code}`)));
    });
    return new LoadProcess(child, port);
  }

  /** `wrk` when it is installed, else `undici` (in the child). */
  readonly generator: 'wrk' | 'undici' = wrkInstalled() ? 'wrk' : 'undici';

  run(spec: LoadSpec): Promise<LoadResult> {
    if (this.generator === 'wrk') return runWrk(spec);
    return new Promise((resolve) => {
      this.child.once('message', (m) => resolve(m as LoadResult));
      this.child.send({ run: spec });
    });
  }

  stop(): void {
    this.child.kill();
  }
}

// ---- wrk -------------------------------------------------------------------------------------------------------

function wrkInstalled(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk prints its version and exits 1; only a missing binary is ENOENT.
    return (err as { code?: string }).code !== 'ENOENT';
  }
}

/** One wrk thread, `concurrency` connections, the spec's request; percentiles from `--latency`. */
async function runWrk(spec: LoadSpec): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-wrk-'));
  const script = join(dir, 'request.lua');
  const headers = spec.body === undefined ? { 'x-tenant-id': 'acme' } : { 'x-tenant-id': 'acme', 'content-type': 'application/json' };
  writeFileSync(script, [
    `wrk.method = ${JSON.stringify(spec.method)}`,
    ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
    spec.body === undefined ? '' : `wrk.body = ${JSON.stringify(spec.body)}`,
    // wrk measures latency from when the request is written, after the delay.
    spec.pacingMs === undefined ? '' : `function delay() return math.random(0, ${Math.round(2 * spec.pacingMs)}) end`,
  ].join('\n'));
  try {
    const out = await new Promise<string>((resolve, reject) => {
      execFile('wrk', ['-t1', `-c${spec.concurrency}`, `-d${spec.seconds}s`, '--latency', '-s', script, `http://127.0.0.1:${spec.port}${spec.path}`],
        (err, stdout) => (err ? reject(err) : resolve(stdout)));
    });
    const field = (re: RegExp) => re.exec(out)?.[1];
    const ms = (text: string | undefined) => {
      const m = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
      if (!m) throw new Error(`wrk: cannot read a latency from ${JSON.stringify(text)} in:\n${out}`);
      return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
    };
    const requests = Number(field(/(\d+) requests in/));
    const socketErrors = [...(field(/Socket errors: (.*)/) ?? '').matchAll(/\d+/g)].reduce((n, m) => n + Number(m[0]), 0);
    return {
      requests,
      errors: Number(field(/Non-2xx or 3xx responses: (\d+)/) ?? 0) + socketErrors,
      rps: Number(field(/Requests\/sec:\s+([\d.]+)/)),
      p50: ms(field(/^\s+50%\s+(\S+)/m)),
      p99: ms(field(/^\s+99%\s+(\S+)/m)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- the child: upstream and load generator ------------------------------------------------------------------

const UPSTREAM_ANSWER = JSON.stringify({ id: 'ord_12345', status: 'accepted', total: 129.5 });

async function childMain(): Promise<void> {
  const upstream = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, ['Content-Type', 'application/json', 'Content-Length', String(UPSTREAM_ANSWER.length)]);
      res.end(UPSTREAM_ANSWER);
    });
  });
  upstream.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  process.on('message', async (m: { run: LoadSpec }) => process.send!(await generateLoad(m.run)));
  process.send!({ upstreamPort: (upstream.address() as { port: number }).port });
}

/** Closed loop: `concurrency` connections, each sending its next request when the previous response ended. */
async function generateLoad(spec: LoadSpec): Promise<LoadResult> {
  const pool = new Pool(`http://127.0.0.1:${spec.port}`, { connections: spec.concurrency });
  const headers = spec.body === undefined ? { 'x-tenant-id': 'acme' } : { 'x-tenant-id': 'acme', 'content-type': 'application/json' };
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const deadline = start + spec.seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const { statusCode, body } = await pool.request({ path: spec.path, method: spec.method, headers, body: spec.body });
        await body.dump();
        if (statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
      if (spec.pacingMs !== undefined) await new Promise((r) => setTimeout(r, Math.random() * 2 * spec.pacingMs!));
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, loop));
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

/**
 * A load run, with the CPU the proxy's process spent per request: on all its threads, and on its event loop's alone
 * (the traffic lane's, without the telemetry lane's workers).
 */
export async function measured(
  proxy: ProxyProcess, run: () => Promise<LoadResult>, after?: () => Promise<unknown>,
): Promise<LoadResult & { cpuPerRequest: number; loopCpuPerRequest: number }> {
  const before = await proxy.cpu();
  const result = await run();
  await after?.();
  const used = await proxy.cpu();
  const requests = Math.max(1, result.requests);
  return { ...result, cpuPerRequest: (used.all - before.all) / requests, loopCpuPerRequest: (used.loop - before.loop) / requests };
}

/** The telemetry lane's counts: exchanges the proxy published, what became of them, and failed WASM policy calls. */
export function telemetryLane(gateway: BenchGateway): TelemetryLaneCounts {
  const metrics = gateway.metricsText();
  const sum = (re: RegExp) => [...metrics.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
  const published = sum(/^vigil_bus_published_total\{topic="gateway\.exchange"[^}]*\} (\S+)$/gm);
  const busDropped = sum(/^vigil_bus_dropped_total\{topic="gateway\.exchange"[^}]*\} (\S+)$/gm);
  const outcomes = sum(/^vigil_capture_records_total\{[^}]*\} (\S+)$/gm);
  const failedBatches = sum(/^vigil_workers_failed_total\{[^}]*pool="capture"[^}]*\} (\S+)$/gm);
  return {
    published,
    stored: sum(/^vigil_capture_records_total\{outcome="stored"\} (\S+)$/gm),
    dropped: busDropped + sum(/^vigil_capture_records_total\{outcome="dropped"\} (\S+)$/gm),
    settled: busDropped + outcomes + failedBatches,
    policyFailures: sum(/^vigil_sandbox_failures_total\{[^}]*sandbox="wasm"[^}]*\} (\S+)$/gm),
  };
}

/**
 * Waits until the telemetry lane has settled every exchange published so far, and says how long that took: a
 * backlog left at the end of a gateway round is work of that round, not to be done during the next bare one.
 */
export async function drained(gateway: BenchGateway): Promise<number> {
  const start = performance.now();
  for (;;) {
    const lane = telemetryLane(gateway);
    if (lane.settled >= lane.published) return performance.now() - start;
    if (performance.now() - start > 60_000) throw new Error(`telemetry lane did not drain: ${JSON.stringify(lane)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// ---- throughput --------------------------------------------------------------------------------------------------

async function throughputMain(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const ROUNDS = 7;
  const CONCURRENCY = 32;
  /** Long enough for both proxies' and the governance workers' code to be optimised: steady state is measured. */
  const WARMUP_SECONDS = 5;
  const load = await LoadProcess.start();
  const bare = await ProxyProcess.start('bare', load.upstreamPort);
  const gateway = await ProxyProcess.start('gateway', load.upstreamPort);
  // Full capture with a telemetry lane that sheds nearly everything (a queue of one exchange): the traffic lane's own
  // capture work (copies, ids, labels, publishing) without the governance workers' and SQLite's CPU beside it.
  const shedding = await ProxyProcess.start('gateway', load.upstreamPort, { capture: { queue: 1 } });
  try {
    const scenarios = [
      { name: 'restricted', budget: 0.9, method: 'GET' as const, path: RESTRICTED_PATH, body: undefined, gateway },
      {
        name: 'full capture (1 KB JSON, 3 redactions)', budget: null, unbudgeted: 'reported, no budget: gateway-cpu holds its CPU per request',
        method: 'POST' as const, path: CAPTURED_PATH, body: ORDER_JSON, gateway,
      },
      {
        name: 'full capture, telemetry lane shedding (capture.queue 1)', budget: null, unbudgeted: 'no budget: the traffic lane\'s share of full capture',
        method: 'POST' as const, path: CAPTURED_PATH, body: ORDER_JSON, gateway: shedding,
      },
    ];
    for (const s of scenarios) {
      const measuredGateway = s.gateway;
      const spec = (port: number, secs: number): LoadSpec => ({ port, method: s.method, path: s.path, body: s.body, concurrency: CONCURRENCY, seconds: secs });
      await load.run(spec(bare.port, WARMUP_SECONDS));
      await load.run(spec(measuredGateway.port, WARMUP_SECONDS));
      await measuredGateway.drained();
      const laneBefore = await measuredGateway.lane();
      const bareRps: number[] = [];
      const vigilRps: number[] = [];
      const bareCpu: number[] = [];
      const vigilCpu: number[] = [];
      const bareP99: number[] = [];
      const vigilP99: number[] = [];
      const loopRatios: number[] = [];
      const bareLoopCpu: number[] = [];
      const vigilLoopCpu: number[] = [];
      let drainMs = 0;
      let errors = 0;
      for (let r = 0; r < ROUNDS; r++) {
        const b = await measured(bare, () => load.run(spec(bare.port, seconds)));
        // The gateway's CPU includes settling its telemetry backlog.
        const v = await measured(measuredGateway, () => load.run(spec(measuredGateway.port, seconds)), async () => {
          drainMs = Math.max(drainMs, await measuredGateway.drained());
        });
        bareRps.push(b.rps);
        vigilRps.push(v.rps);
        bareCpu.push(b.cpuPerRequest);
        vigilCpu.push(v.cpuPerRequest);
        bareP99.push(b.p99);
        vigilP99.push(v.p99);
        loopRatios.push(b.loopCpuPerRequest / v.loopCpuPerRequest);
        bareLoopCpu.push(b.loopCpuPerRequest);
        vigilLoopCpu.push(v.loopCpuPerRequest);
        errors += b.errors + v.errors;
      }
      // Each gateway round against the bare round just before it: a machine whose speed drifts (a shared VM) moves
      // both alike, so the median of the pairs' ratios is steadier than the ratio of the medians.
      const ratios = vigilRps.map((v, i) => v / bareRps[i]);
      console.log(`gateway throughput ${s.name}: ${Math.round(median(vigilRps))} req/s (ratio ${median(ratios).toFixed(2)} vs bare undici proxy, ` +
        `median of ${ROUNDS} paired rounds, range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; ` +
        `bare ${Math.round(median(bareRps))} req/s; ${s.budget === null ? s.unbudgeted : `budget ≥ ${s.budget.toFixed(2)}`}; load from ${load.generator}${errors ? `; ${errors} errors` : ''})`);
      console.log(`  CPU per request in the proxy's process, all threads: ${median(vigilCpu).toFixed(0)} µs (bare ${median(bareCpu).toFixed(0)} µs); ` +
        `p99 flat out ${median(vigilP99).toFixed(2)} ms (bare ${median(bareP99).toFixed(2)} ms)`);
      if (Number.isFinite(median(loopRatios))) {
        console.log(`  of which on the event loop (the traffic lane): ${median(vigilLoopCpu).toFixed(0)} µs (bare ${median(bareLoopCpu).toFixed(0)} µs), ` +
          `bare / gateway ${median(loopRatios).toFixed(2)} (median of ${ROUNDS} paired rounds)`);
      }
      const lane = await measuredGateway.lane();
      console.log(`  telemetry lane over the measured rounds: ${lane.published - laneBefore.published} exchanges, ` +
        `${lane.stored - laneBefore.stored} records stored, ${lane.dropped - laneBefore.dropped} dropped; ` +
        `backlog settled at most ${Math.round(drainMs)} ms after a round`);
    }
  } finally {
    await shedding.stop();
    await gateway.stop();
    await bare.stop();
    load.stop();
  }
}

if (process.argv.includes('--role=load')) await childMain();
else if (process.argv[1] === fileURLToPath(import.meta.url)) await throughputMain();
