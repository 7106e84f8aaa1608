// Benchmark: one histogram observation with four custom labels, `histogram.labels(route, method, status, tenant)
// .observe(v)`, the call a plugin makes per request. Budget (bench/README.md): ≤ 0.13 µs.
//
// Baseline, in the same process and on the same inputs: the least any labelled histogram must do - find the
// series for four label values through Maps and bump a bucket and the sum in a typed array - written inline with
// no registry, no cardinality cap and no exposition text.
//
// Usage: node dist/bench/metric-observe.js [calls per round, default 2000000]
import { MetricsRegistry } from '../runtime/metrics/index.js';
import { median } from './support/median.js';

const CALLS = Number(process.argv[2] ?? 2_000_000);
const ROUNDS = 5;
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// Inputs as a request path would produce them: constant route patterns and methods, status strings, and tenants
// built at run time (50 of them), mixed pseudo-randomly so the series lookups do not follow a pattern.
const ROUTES = ['/api/gateway/records/:id', '/api/gateway/records', '/v1/traces', '/api/v1/gate', '/api/monitor', '/api/caps', '/api/health', '/metrics'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
const STATUSES = ['200', '201', '400', '404', '500'];
const TENANTS = Array.from({ length: 50 }, (_, i) => `tenant-${i}`);
const SIZE = 4096;
const route: string[] = [];
const method: string[] = [];
const status: string[] = [];
const tenant: string[] = [];
const value = new Float64Array(SIZE);
let seed = 42;
const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
for (let i = 0; i < SIZE; i++) {
  route.push(ROUTES[Math.floor(rand() * ROUTES.length)]);
  method.push(METHODS[Math.floor(rand() * METHODS.length)]);
  status.push(STATUSES[Math.floor(rand() * STATUSES.length)]);
  tenant.push(TENANTS[Math.floor(rand() * TENANTS.length)]);
  value[i] = rand() * 2;
}

function runVigil(calls: number): number {
  const registry = new MetricsRegistry();
  const histogram = registry.core.histogram('vigil_bench_request_duration_seconds', {
    help: 'Bench.', labelNames: ['route', 'method', 'status', 'tenant'], buckets: BOUNDS,
  });
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    const j = i & (SIZE - 1);
    histogram.labels(route[j], method[j], status[j], tenant[j]).observe(value[j]);
  }
  const ns = Number(process.hrtime.bigint() - start);
  if (registry.expose().length === 0) throw new Error('nothing exposed');
  return ns / calls;
}

function runBaseline(calls: number): number {
  type Level = Map<string, unknown>;
  const index: Level = new Map();
  const slots = new Float64Array(SIZE * (BOUNDS.length + 2));
  const bounds = Float64Array.from(BOUNDS);
  let next = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    const j = i & (SIZE - 1);
    let l1 = index.get(route[j]) as Level | undefined;
    if (l1 === undefined) index.set(route[j], (l1 = new Map()));
    let l2 = l1.get(method[j]) as Level | undefined;
    if (l2 === undefined) l1.set(method[j], (l2 = new Map()));
    let l3 = l2.get(status[j]) as Level | undefined;
    if (l3 === undefined) l2.set(status[j], (l3 = new Map()));
    let slot = l3.get(tenant[j]) as number | undefined;
    if (slot === undefined) { slot = next; next += BOUNDS.length + 2; l3.set(tenant[j], slot); }
    const v = value[j];
    let b = 0;
    while (b < bounds.length && v > bounds[b]) b++;
    slots[slot + b]++;
    slots[slot + BOUNDS.length + 1] += v;
  }
  const ns = Number(process.hrtime.bigint() - start);
  if (slots.every((s) => s === 0)) throw new Error('nothing recorded');
  return ns / calls;
}


// Warm both paths up to optimised code before measuring; then alternate so both see the same machine load.
runVigil(CALLS / 4);
runBaseline(CALLS / 4);
const vigil: number[] = [];
const baseline: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  vigil.push(runVigil(CALLS));
  baseline.push(runBaseline(CALLS));
}
const us = median(vigil) / 1000;
const ratio = median(vigil) / median(baseline);
console.log(`metric observation with custom label: ${us.toFixed(3)} µs (ratio ${ratio.toFixed(2)} vs baseline)`);
