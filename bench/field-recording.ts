// Benchmark: what observing fields (GovernTask.recordFields: route templates, query, headers, every JSON path of
// both bodies with kinds and formats) adds to governance, per record, single-threaded, on the exchange the
// throughput benchmark sends (1 KB order JSON, three redactions, tenant label), each with its own order id in the
// path (a template-cache miss per exchange, as with real ids).
// Baseline: the same batches governed without recording, rounds alternated in the same process.
// Also reports the event loop's share: merging a batch's observations into capture's accumulator, per record.
// Prints `field recording: X µs/record (ratio X.XX vs baseline Y µs/record)`. Budget: ≤ 1.15.
//
// Usage: node dist/bench/field-recording.js [rounds, default 300]
import { uuidv7, type RawExchange } from '@vigil/plugin-sdk';
import { compilePolicy } from '../policies/compile.js';
import type { PolicyConfig } from '../policies/schema.js';
import governBatch from '../plugins/governance/govern-worker.js';
import { FieldAccumulator } from '../plugins/capture/field-accumulator.js';
import { ORDER_JSON, RULES } from './gateway-throughput.js';

const ROUNDS = Number(process.argv[2] ?? 300);
const WARMUP = 40;
const BATCH = 100;
const policy = { rules: RULES } as unknown as PolicyConfig;
const compiled = compilePolicy(policy);
const enc = new TextEncoder();
const ANSWER = JSON.stringify({ id: 'ord_12345', status: 'accepted', total: 129.5, created: '2026-11-26T02:00:00Z' });
let serial = 0;

function batch(): RawExchange[] {
  return Array.from({ length: BATCH }, () => {
    const time = Date.now();
    const path = `/api/orders/ord_${(1e9 + serial++).toString(36)}x7`;
    const target = `${path}?expand=items&page=2`;
    return {
      id: uuidv7(time), time, method: 'POST', target, path,
      ruleIndexes: compiled.decide('POST', path).ruleIndexes as number[], labels: { tenant: 'acme' },
      requestHeaders: ['host', '127.0.0.1:8080', 'connection', 'keep-alive', 'x-tenant-id', 'acme', 'content-type', 'application/json', 'content-length', String(ORDER_JSON.length)],
      responseHeaders: ['Content-Type', 'application/json', 'Content-Length', String(ANSWER.length), 'Date', new Date(time).toUTCString(), 'Keep-Alive', 'timeout=60'],
      status: 200, durationMs: 1.25, requestBody: enc.encode(ORDER_JSON), requestTruncated: false,
      responseBody: enc.encode(ANSWER), responseTruncated: false,
    };
  });
}

const spent = { without: 0, with: 0, merge: 0 };
const ratios: number[] = [];
const accumulator = new FieldAccumulator();
let rows = 0;
// CPU time of this thread's process, not wall time: on a loaded machine (other processes on the same cores) wall
// time measures the scheduler. Each round's pair gives a ratio; the median of those is the figure least moved by
// a noisy neighbour.
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (let round = 0; round < ROUNDS + WARMUP; round++) {
  const measured = round >= WARMUP; // the first rounds warm the JIT up
  // Alternated, and each side gets a fresh batch: neither profits from the other's caches.
  const order = round % 2 === 0 ? [false, true] : [true, false];
  const took = { with: 0, without: 0 };
  for (const recordFields of order) {
    const exchanges = batch();
    const t = cpuMs();
    const result = await governBatch({ policy, exchanges, recordFields });
    took[recordFields ? 'with' : 'without'] = cpuMs() - t;
    if (recordFields) {
      const m = cpuMs();
      accumulator.add(result.fields!);
      if (measured) spent.merge += cpuMs() - m;
      rows = result.fields!.length;
    }
  }
  if (measured) {
    spent.with += took.with;
    spent.without += took.without;
    if (took.without > 0) ratios.push(took.with / took.without);
  }
  if (round % 50 === 0) accumulator.take();
}

const records = ROUNDS * BATCH;
const perRecord = (ms: number) => (ms * 1000) / records;
const base = perRecord(spent.without);
const withFields = perRecord(spent.with);
const median = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
console.log(`field recording: ${withFields.toFixed(2)} µs/record CPU (ratio ${(withFields / base).toFixed(2)} vs baseline ${base.toFixed(2)} µs/record without recording; median of per-round ratios ${median.toFixed(2)}; budget ≤ 1.15)`);
console.log(`field recording, event loop merge into the accumulator: ${perRecord(spent.merge).toFixed(3)} µs/record CPU (${rows} observations per batch of ${BATCH})`);
