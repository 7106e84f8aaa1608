// Benchmark: the gateway's CPU per request with full capture at a paced, moderate load, with capture's
// `batch_delay` at its default (200 ms) against 20 ms, in the same run. Below full batches (512), a batch holds what
// arrives within the delay, and each store transaction has a fixed cost (its statements' round trips to SQLite's
// threads, the WAL commit rewriting each B-tree's last page), so short delays pay it for a few records each.
//
// Each gateway runs in a process of its own (support/proxy-process.ts) on one upstream (the throughput benchmark's
// harness); rounds alternate between them, and each round's CPU (all threads of that gateway's process) includes
// one idle second after it, in which the telemetry lane settles its backlog. The paced rate also shows latency:
// each connection's cycle is its pause plus the request's latency.
// Prints `capture batch delay 200ms (default): X µs CPU/request (ratio vs 20 ms)`.
//
// Usage: node --max-semi-space-size=64 dist/bench/capture-batch-delay.js [seconds per round, default 5]
import { CAPTURED_PATH, LoadProcess, ORDER_JSON, type LoadSpec } from './gateway-throughput.js';
import { median } from './support/median.js';
import { ProxyProcess } from './support/proxy-process.js';

const seconds = Number(process.argv[2] ?? 5);
const ROUNDS = 5;
const CONNECTIONS = 16;
/** Each connection waits 0–40 ms between requests: about 700 req/s, well below saturation on 2 cores. */
const PACING_MS = 20;
/** Idle time after each round, the same for both sides, for the last batch to leave and be stored. */
const SETTLE_MS = 1000;

const load = await LoadProcess.start();
const sides = [
  { name: '200ms (default)', gateway: await ProxyProcess.start('gateway', load.upstreamPort) },
  { name: '20ms', gateway: await ProxyProcess.start('gateway', load.upstreamPort, { capture: { batch_delay: '20ms' } }) },
];
try {
  const spec = (port: number, secs: number): LoadSpec => ({
    port, method: 'POST', path: CAPTURED_PATH, body: ORDER_JSON, concurrency: CONNECTIONS, seconds: secs, pacingMs: PACING_MS,
  });
  for (const { gateway } of sides) { await load.run(spec(gateway.port, 3)); await gateway.drained(); }
  const cpu = sides.map(() => [] as number[]);
  const rps = sides.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, { gateway }] of sides.entries()) {
      const before = await gateway.cpu();
      const result = await load.run(spec(gateway.port, seconds));
      // Past both delays before looking: each look renders /metrics, which would charge the longer delay more.
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      await gateway.drained();
      const used = (await gateway.cpu()).all - before.all;
      cpu[i].push(used / Math.max(1, result.requests));
      rps[i].push(result.rps);
    }
  }
  const [ours, baseline] = [median(cpu[0]), median(cpu[1])];
  console.log(`capture batch delay ${sides[0].name}: ${ours.toFixed(0)} µs CPU/request (ratio ${(ours / baseline).toFixed(2)} vs ${sides[1].name} at ${baseline.toFixed(0)} µs; median of ${ROUNDS} rounds; ${Math.round(median(rps[0]))} vs ${Math.round(median(rps[1]))} req/s paced, full capture of 1 KB JSON; load from ${load.generator})`);
} finally {
  for (const { gateway } of sides) await gateway.stop();
  load.stop();
}
