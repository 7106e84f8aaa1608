// Benchmark: gateway p99 latency against a bare undici proxy, at a moderate closed-loop load (8 connections, below
// saturation, so the figure is the time a request spends in the proxy rather than in a queue). Budget (DESIGN.md):
// p99 ≤ the bare proxy's p99 + 1 ms. Measured on the restricted route and with full capture of a 1 KB JSON body
// and three redactions; rounds alternate bare / gateway. Same harness as gateway-throughput.ts (upstream in a child
// process, load from wrk when installed, both proxies in this one).
//
// Usage: node dist/bench/gateway-latency.js [seconds per round, default 3]
import {
  CAPTURED_PATH, LoadProcess, median, ORDER_JSON, RESTRICTED_PATH, startBareProxy, startGateway, type LoadSpec,
} from './gateway-throughput.js';

const seconds = Number(process.argv[2] ?? 3);
const ROUNDS = 5;
const CONCURRENCY = 8;

const load = await LoadProcess.start();
const bare = await startBareProxy(load.upstreamPort);
const gateway = await startGateway(load.upstreamPort);
try {
  const scenarios = [
    { name: 'restricted', method: 'GET' as const, path: RESTRICTED_PATH, body: undefined },
    { name: 'full capture (1 KB JSON, 3 redactions)', method: 'POST' as const, path: CAPTURED_PATH, body: ORDER_JSON },
  ];
  for (const s of scenarios) {
    const spec = (port: number, secs: number): LoadSpec => ({ port, method: s.method, path: s.path, body: s.body, concurrency: CONCURRENCY, seconds: secs });
    await load.run(spec(bare.port, 1));
    await load.run(spec(gateway.port, 1));
    const bareP99: number[] = [];
    const vigilP99: number[] = [];
    const bareP50: number[] = [];
    const vigilP50: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const b = await load.run(spec(bare.port, seconds));
      const v = await load.run(spec(gateway.port, seconds));
      bareP99.push(b.p99);
      vigilP99.push(v.p99);
      bareP50.push(b.p50);
      vigilP50.push(v.p50);
    }
    const v = median(vigilP99);
    const b = median(bareP99);
    console.log(`gateway p99 latency ${s.name}: ${v.toFixed(2)} ms (ratio ${(v / b).toFixed(2)} vs bare undici proxy; ` +
      `bare ${b.toFixed(2)} ms, difference ${(v - b >= 0 ? '+' : '') + (v - b).toFixed(2)} ms, budget ≤ +1.00 ms; ` +
      `p50 ${median(vigilP50).toFixed(2)} vs ${median(bareP50).toFixed(2)} ms; load from ${load.generator})`);
  }
} finally {
  await gateway.rt.stop();
  await bare.close();
  load.stop();
}
