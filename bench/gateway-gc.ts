// Benchmark: the main thread's garbage collection per request, gateway against a bare undici proxy. No budget of
// its own; it explains the p99 budget (gateway-latency.ts): on a small machine a scavenge pauses the event loop for
// several milliseconds, so how often the traffic lane allocates enough to trigger one shows up directly in p99.
//
// Same harness as gateway-throughput.ts, at the latency benchmark's paced rate (here a fixed 1,500 req/s over 16
// connections, below saturation on a 2-core machine). Each proxy runs in a process of its own
// (support/proxy-process.ts), which counts its main isolate's scavenges with a PerformanceObserver on `gc` entries;
// in one process the bare proxy's rounds would collect part of the gateway's garbage. Rounds alternate bare /
// restricted route / full capture of a 1 KB JSON body with three redactions (the last two on the same gateway).
// Prints, per side, scavenges per 1,000 requests (steady: it follows bytes allocated per request) and the time they
// paused the event loop; the ratio is gateway / bare.
//
// Usage: node --max-semi-space-size=64 dist/bench/gateway-gc.js [seconds per round, default 5]
import { CAPTURED_PATH, LoadProcess, ORDER_JSON, RESTRICTED_PATH, type LoadSpec } from './gateway-throughput.js';
import { median } from './support/median.js';
import { ProxyProcess } from './support/proxy-process.js';

const seconds = Number(process.argv[2] ?? 5);
const ROUNDS = 3;
const CONNECTIONS = 16;
const RATE = 1_500;

const load = await LoadProcess.start();
const bare = await ProxyProcess.start('bare', load.upstreamPort);
const gateway = await ProxyProcess.start('gateway', load.upstreamPort);
try {
  const sides = [
    { name: 'bare', proxy: bare, path: CAPTURED_PATH },
    { name: 'restricted', proxy: gateway, path: RESTRICTED_PATH },
    { name: 'full capture', proxy: gateway, path: CAPTURED_PATH },
  ];
  const spec = (port: number, path: string, secs: number): LoadSpec =>
    ({ port, method: 'POST', path, body: ORDER_JSON, concurrency: CONNECTIONS, seconds: secs, pacingMs: (CONNECTIONS / RATE) * 1000 });
  for (const s of sides) await load.run(spec(s.proxy.port, s.path, 3));
  await gateway.drained();
  const perThousand = new Map<string, number[]>(sides.map((s) => [s.name, []]));
  const pausePerThousand = new Map<string, number[]>(sides.map((s) => [s.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of sides) {
      const before = await s.proxy.gc();
      const result = await load.run(spec(s.proxy.port, s.path, seconds));
      // The telemetry lane's own work after the round belongs to it.
      await s.proxy.drained();
      const after = await s.proxy.gc();
      perThousand.get(s.name)!.push(((after.scavenges - before.scavenges) * 1000) / result.requests);
      pausePerThousand.get(s.name)!.push(((after.pauseMs - before.pauseMs) * 1000) / result.requests);
    }
  }
  const base = median(perThousand.get('bare')!);
  for (const s of sides) {
    const n = median(perThousand.get(s.name)!);
    console.log(`gateway gc ${s.name}: ${n.toFixed(2)} scavenges per 1,000 requests (ratio ${(n / base).toFixed(2)} vs bare undici proxy; ` +
      `${median(pausePerThousand.get(s.name)!).toFixed(1)} ms of scavenge pauses per 1,000 requests; paced at ${RATE} req/s; load from ${load.generator})`);
  }
} finally {
  await gateway.stop();
  await bare.stop();
  load.stop();
}
