// Benchmark: gateway throughput with a WASM policy on the route, against the same route without one.
//
// Two gateways (the real runtime: proxy, capture with its governance worker and SQLite store), each in a process of
// its own (support/proxy-process.ts), with the same rules (gateway-throughput.ts's RULES); on one of them the
// `orders` rule also names the card-numbers example policy (`wasm:`), built here. Same upstream, same load child,
// rounds alternated. The policy runs on the telemetry lane, so what it can cost the traffic lane is CPU taken from
// the proxy; the telemetry lane's own outcome (stored, dropped, policy failures) is printed after the ratio.
// Usage: node --max-semi-space-size=64 dist/bench/gateway-wasm-policy.js [seconds per round, default 3]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPolicy } from '../sandbox/wasm/build-policy.js';
import { CAPTURED_PATH, LoadProcess, ORDER_JSON, RULES, type LoadSpec } from './gateway-throughput.js';
import { median } from './support/median.js';
import { ProxyProcess } from './support/proxy-process.js';

const ROUNDS = 5;
const CONCURRENCY = 32;

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const work = mkdtempSync(join(tmpdir(), 'vigil-bench-wasm-policy-'));
  const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
  const module = await buildPolicy(join(root, 'examples/policies/card-numbers.ts'), { outFile: join(work, 'card-numbers.wasm') });
  const withPolicy = RULES.map((r) => (r.name === 'orders' ? { ...r, wasm: module } : r));

  const load = await LoadProcess.start();
  const plain = await ProxyProcess.start('gateway', load.upstreamPort);
  const wasm = await ProxyProcess.start('gateway', load.upstreamPort, { rules: withPolicy });
  try {
    const spec = (port: number, secs: number): LoadSpec =>
      ({ port, method: 'POST', path: CAPTURED_PATH, body: ORDER_JSON, concurrency: CONCURRENCY, seconds: secs });
    // Warm-up to steady state (JIT), then each round's telemetry backlog is settled before the next round starts.
    await load.run(spec(plain.port, 5));
    await load.run(spec(wasm.port, 5));
    await Promise.all([plain.drained(), wasm.drained()]);
    const plainRps: number[] = [];
    const wasmRps: number[] = [];
    let errors = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const p = await load.run(spec(plain.port, seconds));
      await plain.drained();
      const w = await load.run(spec(wasm.port, seconds));
      await wasm.drained();
      plainRps.push(p.rps);
      wasmRps.push(w.rps);
      errors += p.errors + w.errors;
    }
    const ratio = median(wasmRps) / median(plainRps);
    console.log(`gateway throughput with a WASM policy (card-numbers on a 1 KB JSON route, full capture): ` +
      `${Math.round(median(wasmRps))} req/s (ratio ${ratio.toFixed(2)} vs the same route without one; ` +
      `without: ${Math.round(median(plainRps))} req/s; load from ${load.generator}${errors ? `; ${errors} errors` : ''})`);

    for (const [name, gw] of [['without', plain], ['with', wasm]] as const) {
      const lane = await gw.lane();
      console.log(`  (telemetry lane ${name} the policy: ${lane.stored} records stored, ${lane.dropped} exchanges dropped, ${lane.policyFailures} policy call failures)`);
    }
  } finally {
    await Promise.allSettled([plain.stop(), wasm.stop()]);
    load.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
