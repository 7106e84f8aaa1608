// Benchmark: governed records stored per second through the real telemetry lane - raw exchanges published on
// `gateway.exchange`, batched to the governance worker pool (parse, redact, label, meter, re-serialise), written to
// SQLite with their minute rollups, and published on `gateway.record`. Budget (bench/README.md): ≥ 20,000 records/s.
//
// Baseline, in the same run and on the same machine: `insertMany` of the same record rows (already governed, already
// serialised) into the same table on SQLite, in batches of the same size, one batch after another - the store's own
// ceiling, with no governance, no worker hand-off and no rollups.
//
// Prints `governed records stored: N records/s (ratio X.XX vs baseline)`; the ratio is vigil / baseline, so above
// 1 would mean faster than the bare inserts.
//
// Usage: node dist/bench/records-stored.js [records per round, default 40000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqlValue } from '@vigil/plugin-sdk';
import { startTestRuntime } from '@vigil/plugin-sdk/testing';
import { compilePolicy } from '../policies/compile.js';
import type { PolicyConfig } from '../policies/schema.js';
import type { RawExchange } from '../gateway/govern/types.js';
import governBatch from '../gateway/govern/govern-worker.js';
import { captureMigrations } from '../gateway/records/migrations.js';
import { recordRow, RECORD_COLUMNS } from '../gateway/records/record-writer.js';
import '../gateway/records/lane-tasks.js';
import { openStore } from '../runtime/store/index.js';
import { median } from './support/median.js';

const N = Number(process.argv[2] ?? 40_000);
const ROUNDS = 3;
// The plugin's defaults; override to compare settings.
const BATCH = Number(process.env.BENCH_BATCH ?? 512);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);

// A gateway policy of the usual kind (examples/policy.yaml): three JSON-field redactions (exact, one level, any depth), a
// redacted header, a tenant label and a token meter.
const policy: PolicyConfig = {
  rules: [{
    name: 'api',
    match: { path: '/api/**' },
    redact: { headers: ['authorization'], json_fields: ['$.card.number', '$.*.ssn', '$.**.password'] },
    labels: { tenant: 'header:X-Tenant' },
    meter: { tokens: '$.usage.total_tokens' },
  }],
};
const decision = compilePolicy(policy).decide('POST', '/api/orders');

// About 1 KB of JSON request body, a smaller response with the token count.
const encoder = new TextEncoder();
const requestBody = encoder.encode(JSON.stringify({
  customer: { name: 'Ada Lovelace', email: 'ada@example.com', ssn: '123-45-6789', password: 'hunter2' },
  card: { number: '4111111111111111', expiry: '12/29', holder: 'ADA LOVELACE' },
  items: Array.from({ length: 8 }, (_, i) => ({ sku: `SKU-${1000 + i}`, qty: i + 1, price: 9.99 + i, note: 'gift wrap, no invoice in the box' })),
  shipping: { street: '12 Analytical Row', city: 'London', postcode: 'N1 9GU', country: 'GB' },
}));
const responseBody = encoder.encode(JSON.stringify({ id: 'ord_123', status: 'accepted', usage: { total_tokens: 321 } }));
const tenants = Array.from({ length: 20 }, (_, i) => `tenant-${i}`);

function exchanges(round: number): RawExchange[] {
  const now = Date.now();
  return Array.from({ length: N }, (_, i) => ({
    id: `r${round}-${i}`,
    time: now - N + i,
    method: 'POST',
    target: '/api/orders?token=abc&page=2',
    path: '/api/orders',
    ruleIndexes: decision.ruleIndexes as number[],
    labels: { tenant: tenants[i % tenants.length] },
    requestHeaders: ['Content-Type', 'application/json', 'Authorization', 'Bearer secret', 'X-Tenant', tenants[i % tenants.length]],
    responseHeaders: ['Content-Type', 'application/json'],
    status: i % 50 === 0 ? 502 : 200,
    durationMs: 3 + (i % 97),
    requestBody,
    requestTruncated: false,
    responseBody,
    responseTruncated: false,
  }));
}

// The rules go to the governance plugin, as in a config file. Nothing subscribes to `gateway.record`: this measures
// storing, and records reach the bus only when someone listens.
const rt = await startTestRuntime({
  plugins: [],
  // The whole round is published at once, so the queue must hold it; steady traffic needs far less.
  config: { capture: { queue: 2 * N, batch: BATCH, workers: WORKERS }, rules: policy.rules },
});

async function storedSoFar(): Promise<number> {
  const text = await rt.metrics();
  const m = /^vigil_capture_records_total\{outcome="stored"\} (\d+)/m.exec(text);
  const failed = /^vigil_capture_records_total\{outcome="(?:store_failed|dropped)"\} ([1-9]\d*)/m.exec(text);
  if (failed) throw new Error(`records lost: ${failed[0]}`);
  return m ? Number(m[1]) : 0;
}

// CPU time of the whole process (main thread, worker threads, SQLite's threads) per record: steadier than the
// wall clock when other work shares the machine.
const cpuPerRecord: number[] = [];

/** Records per second through the runtime: publish all, wait until every record is stored. */
async function runVigil(round: number): Promise<number> {
  const input = exchanges(round);
  const before = await storedSoFar();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const e of input) rt.publish('gateway.exchange', e);
  // Polled at a coarse interval: rendering /metrics costs the main thread too.
  while (await storedSoFar() < before + N) await new Promise((r) => setTimeout(r, 25));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  cpuPerRecord.push((cpu.user + cpu.system) / N);
  return N / seconds;
}

const work = mkdtempSync(join(tmpdir(), 'vigil-bench-records-'));
const backend = await openStore(`sqlite:${join(work, 'vigil.db')}`);
const store = backend.forPlugin('capture');
await store.migrate(captureMigrations);

/** Records per second for bare `insertMany` of the same rows, batch after batch. */
async function runBaseline(round: number): Promise<number> {
  const rows: SqlValue[][] = (await governBatch({ policy, exchanges: exchanges(round) })).records.map((r) => recordRow({ ...r, id: `b${r.id}` }));
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) {
    await store.insertMany(store.table('records'), RECORD_COLUMNS, rows.slice(i, i + BATCH), { onConflict: 'ON CONFLICT (id) DO NOTHING' });
  }
  return rows.length / ((performance.now() - t0) / 1000);
}

try {
  await runVigil(0); // warm-up: worker threads, compiled policy, statement caches
  const vigil: number[] = [];
  const baseline: number[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    vigil.push(await runVigil(r));
    baseline.push(await runBaseline(r));
  }
  const v = median(vigil);
  const b = median(baseline);
  const page = await rt.fetch('/api/gateway/records?limit=200').then((r) => r.text());
  if (!page.includes('[REDACTED]') || page.includes('4111111111111111')) throw new Error('stored records are not governed');
  console.log(`governed records stored: ${Math.round(v)} records/s (ratio ${(v / b).toFixed(2)} vs baseline bare insertMany at ${Math.round(b)} records/s; median of ${ROUNDS}, ${N} records each; budget 20000 records/s; ${median(cpuPerRecord).toFixed(0)} µs CPU per record over all threads; ${WORKERS} workers, batches of ${BATCH})`);
} finally {
  await rt.stop();
  await backend.close();
  rmSync(work, { recursive: true, force: true });
}
