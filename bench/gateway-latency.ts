// Benchmark: gateway p99 latency against a bare undici proxy. Budget (bench/README.md): p99 ≤ the bare proxy's p99 + 1 ms.
//
// Latency is measured below saturation, at the same paced request rate on both sides: a fraction of what the bare
// proxy serves flat out, measured first in the same run. Under a closed loop every proxy is saturated and its p99 is
// the time requests wait in its queue, which only restates throughput (see gateway-throughput.ts, which prints it);
// at a paced rate the p99 is what a request spends in the proxy. The difference is the median over pairs of rounds.
// Measured on the restricted route and with full capture of a 1 KB JSON body and three redactions; rounds alternate
// bare / gateway, and after each gateway round its telemetry lane settles its backlog, so none of that work falls
// into a bare round. Upstream and load as in gateway-throughput.ts (a child process; wrk when installed). Each proxy
// runs in a process of its own (support/proxy-process.ts): sharing one V8 heap, the bare proxy would collect part of
// the gateway's garbage in its own rounds, and the difference would shrink by what it pays for the gateway.
//
// Usage: node --max-semi-space-size=64 dist/bench/gateway-latency.js [seconds per round, default 3] [load fraction, default 0.4]
import { CAPTURED_PATH, LoadProcess, ORDER_JSON, RESTRICTED_PATH, type LoadResult, type LoadSpec } from './gateway-throughput.js';
import { median } from './support/median.js';
import { ProxyProcess } from './support/proxy-process.js';

const seconds = Number(process.argv[2] ?? 3);
const ROUNDS = 7;
const CONNECTIONS = 16;
/** The paced rate, as a fraction of the bare proxy's saturated throughput. */
const LOAD_FRACTION = Number(process.argv[3] ?? 0.4);

const load = await LoadProcess.start();
const bare = await ProxyProcess.start('bare', load.upstreamPort);
const gateway = await ProxyProcess.start('gateway', load.upstreamPort);
try {
  const scenarios = [
    { name: 'restricted', method: 'GET' as const, path: RESTRICTED_PATH, body: undefined },
    { name: 'full capture (1 KB JSON, 3 redactions)', method: 'POST' as const, path: CAPTURED_PATH, body: ORDER_JSON },
  ];
  for (const s of scenarios) {
    const base = (port: number, secs: number): LoadSpec => ({ port, method: s.method, path: s.path, body: s.body, concurrency: CONNECTIONS, seconds: secs });
    // Warms both up; the bare proxy's closed-loop throughput sets the paced rate.
    const capacity = (await load.run({ ...base(bare.port, 2), concurrency: 32 })).rps;
    await load.run({ ...base(gateway.port, 2), concurrency: 32 });
    await gateway.drained();
    const pacingMs = (CONNECTIONS / (capacity * LOAD_FRACTION)) * 1000;
    const spec = (port: number): LoadSpec => ({ ...base(port, seconds), pacingMs });
    const bareRuns: LoadResult[] = [];
    const vigilRuns: LoadResult[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      bareRuns.push(await load.run(spec(bare.port)));
      vigilRuns.push(await load.run(spec(gateway.port)));
      await gateway.drained();
    }
    const m = (runs: LoadResult[], k: 'p99' | 'p50' | 'rps') => median(runs.map((x) => x[k]));
    const v = m(vigilRuns, 'p99');
    const b = m(bareRuns, 'p99');
    // Each gateway round against the bare round just before it (a drifting machine moves both alike).
    const differences = vigilRuns.map((x, i) => x.p99 - bareRuns[i].p99);
    const d = median(differences);
    const signed = (x: number) => (x >= 0 ? '+' : '') + x.toFixed(2);
    console.log(`gateway p99 latency ${s.name}: ${v.toFixed(2)} ms (ratio ${(v / b).toFixed(2)} vs bare undici proxy; ` +
      `bare ${b.toFixed(2)} ms, difference ${signed(d)} ms (median of ${ROUNDS} paired rounds, range ${signed(Math.min(...differences))} to ` +
      `${signed(Math.max(...differences))}), budget ≤ +1.00 ms; ` +
      `p50 ${m(vigilRuns, 'p50').toFixed(2)} vs ${m(bareRuns, 'p50').toFixed(2)} ms; load from ${load.generator})`);
    console.log(`  at ${Math.round(m(vigilRuns, 'rps'))} vs ${Math.round(m(bareRuns, 'rps'))} req/s paced over ${CONNECTIONS} connections ` +
      `(${Math.round(LOAD_FRACTION * 100)} % of the bare proxy's ${Math.round(capacity)} req/s flat out)`);
  }
} finally {
  await gateway.stop();
  await bare.stop();
  load.stop();
}
