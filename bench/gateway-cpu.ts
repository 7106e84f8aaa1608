// Benchmark: the gateway's CPU per captured request, all threads (the traffic lane's event loop, the capture workers
// and SQLite's threads), against a bare undici proxy's CPU per request. Budget (bench/README.md): ≤ 1.5 ×.
//
// CPU per item, not throughput: on a small machine the load generator and the upstream share the cores, and a
// throughput ratio then measures the machine as much as the gateway (bench/README.md). Both proxies get the same paced
// load (a fraction of what the bare proxy serves flat out, measured first), each in a process of its own, and each
// round's CPU is read from the proxy's process (process.cpuUsage over all its threads) before and after; a gateway
// round includes settling its telemetry backlog, so every captured request is governed and stored in the round it
// belongs to. Rounds alternate bare / gateway; the ratio is the median over the pairs.
//
// Scenarios: full capture of a 1 KB JSON body with three redactions and a tenant label (the budget, with the default
// capture.record_fields: true), the same with record_fields: false (a gateway process of its own: what field
// recording adds, reported), and a restricted route (reported).
// Usage: node --max-semi-space-size=64 dist/bench/gateway-cpu.js [seconds per round, default 4] [load fraction, default 0.3]
import { CAPTURED_PATH, LoadProcess, measured, ORDER_JSON, RESTRICTED_PATH, type LoadSpec } from './gateway-throughput.js';
import { median } from './support/median.js';
import { ProxyProcess } from './support/proxy-process.js';

const seconds = Number(process.argv[2] ?? 4);
const LOAD_FRACTION = Number(process.argv[3] ?? 0.3);
const ROUNDS = 7;
const CONNECTIONS = 16;
const BUDGET = 1.5;

const load = await LoadProcess.start();
const bare = await ProxyProcess.start('bare', load.upstreamPort);
const recording = await ProxyProcess.start('gateway', load.upstreamPort);
const unrecorded = await ProxyProcess.start('gateway', load.upstreamPort, { capture: { record_fields: false } });
try {
  const scenarios = [
    { name: 'captured request (1 KB JSON, 3 redactions, a label)', gateway: recording, budget: BUDGET, method: 'POST' as const, path: CAPTURED_PATH, body: ORDER_JSON },
    { name: 'captured request, record_fields: false', gateway: unrecorded, budget: null, method: 'POST' as const, path: CAPTURED_PATH, body: ORDER_JSON },
    { name: 'restricted request', gateway: recording, budget: null, method: 'GET' as const, path: RESTRICTED_PATH, body: undefined },
  ];
  const specOf = (s: typeof scenarios[number], port: number, secs: number): LoadSpec =>
    ({ port, method: s.method, path: s.path, body: s.body, concurrency: CONNECTIONS, seconds: secs });
  // Every process warmed over every scenario first, unmeasured, until its CPU per request is steady: a process still
  // warming measures differently (the bare proxy's own cost grows with age, the gateway's falls), so whichever
  // scenario came first would pay for the order (bench/README.md, "The gateway").
  for (let pass = 0; pass < 2; pass++) {
    for (const s of scenarios) {
      await load.run({ ...specOf(s, bare.port, 3), concurrency: 32 });
      await load.run({ ...specOf(s, s.gateway.port, 3), concurrency: 32 });
      await s.gateway.drained();
    }
  }
  for (const s of scenarios) {
    const gateway = s.gateway;
    const base = (port: number, secs: number): LoadSpec => specOf(s, port, secs);
    // The bare proxy's closed-loop throughput sets the paced rate.
    const capacity = (await load.run({ ...base(bare.port, 3), concurrency: 32 })).rps;
    const pacingMs = (CONNECTIONS / (capacity * LOAD_FRACTION)) * 1000;
    const spec = (port: number): LoadSpec => ({ ...base(port, seconds), pacingMs });
    const bareCpu: number[] = [];
    const vigilCpu: number[] = [];
    const vigilLoop: number[] = [];
    const rates: number[] = [];
    let errors = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const b = await measured(bare, () => load.run(spec(bare.port)));
      const v = await measured(gateway, () => load.run(spec(gateway.port)), () => gateway.drained());
      bareCpu.push(b.cpuPerRequest);
      vigilCpu.push(v.cpuPerRequest);
      vigilLoop.push(v.loopCpuPerRequest);
      rates.push(v.rps);
      errors += b.errors + v.errors;
    }
    // Each gateway round against the bare round just before it: a machine whose speed drifts moves both alike.
    const ratios = vigilCpu.map((v, i) => v / bareCpu[i]);
    const ratio = median(ratios);
    const verdict = s.budget === null ? 'no budget' : `budget ≤ ${s.budget.toFixed(2)}: ${ratio <= s.budget ? 'met' : 'missed'}`;
    console.log(`gateway cpu per ${s.name}: ${median(vigilCpu).toFixed(0)} µs (ratio ${ratio.toFixed(2)} vs bare undici proxy at ` +
      `${median(bareCpu).toFixed(0)} µs; median of ${ROUNDS} paired rounds, range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; ${verdict})`);
    console.log(`  of which on the event loop: ${median(vigilLoop).toFixed(0)} µs; paced at ${Math.round(median(rates))} req/s ` +
      `(${Math.round(LOAD_FRACTION * 100)} % of the bare proxy's ${Math.round(capacity)} req/s flat out) over ${CONNECTIONS} connections${errors ? `; ${errors} errors` : ''}`);
  }
} finally {
  await recording.stop();
  await unrecorded.stop();
  await bare.stop();
  load.stop();
}
