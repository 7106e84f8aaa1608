// Benchmark: where a captured exchange's CPU goes on the telemetry lane, stage by stage, single-threaded, on the
// exchange the throughput benchmark sends (1 KB order JSON, three redactions, tenant label):
//   pack      the main thread packs a batch for the worker (the only stage left on the traffic lane's thread);
//   unpack    the worker reads the batch back;
//   govern    decode, redact, label, meter (governBatch);
//   rows      the stored row and the rollups;
//   insert    the SQLite transaction, as the worker runs it.
// Baseline: a bare JSON.parse + JSON.stringify of the same two bodies, the least a parse-based governance would do.
// Prints `govern stage <name>: X µs/record (ratio X.XX vs baseline)`.
//
// Usage: node dist/bench/govern-stages.js [batches per round, default 200]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawExchange } from '../gateway/exchange/raw-exchange.js';
import { compilePolicy } from '../policies/compile.js';
import type { PolicyConfig } from '../policies/schema.js';
import governBatch from '../gateway/govern/govern-worker.js';
import { packExchanges, unpackExchanges } from '../gateway/exchange/exchange-batch.js';
import { captureMigrations } from '../gateway/records/migrations.js';
import { foldRollups, recordRow, RecordWriter } from '../gateway/records/record-writer.js';
import { uuidv7 } from '@vigil/plugin-sdk';
import { openStore } from '../runtime/store/index.js';
import { CAPTURED_PATH, ORDER_JSON, RULES } from './gateway-throughput.js';

const BATCHES = Number(process.argv[2] ?? 200);
const BATCH = 100;
const policy = { rules: RULES } as unknown as PolicyConfig;
const decision = compilePolicy(policy).decide('POST', CAPTURED_PATH);
const enc = new TextEncoder();
const ANSWER = JSON.stringify({ id: 'ord_12345', status: 'accepted', total: 129.5 });

/** A batch as the proxy publishes it: Node's raw headers, fresh ids, body copies. */
function batch(): RawExchange[] {
  return Array.from({ length: BATCH }, () => {
    const time = Date.now();
    return {
      id: uuidv7(time), time, method: 'POST', target: CAPTURED_PATH, path: CAPTURED_PATH,
      ruleIndexes: decision.ruleIndexes as number[], labels: { tenant: 'acme' },
      requestHeaders: ['host', '127.0.0.1:8080', 'connection', 'keep-alive', 'x-tenant-id', 'acme', 'content-type', 'application/json', 'content-length', String(ORDER_JSON.length)],
      responseHeaders: ['Content-Type', 'application/json', 'Content-Length', String(ANSWER.length), 'Date', new Date(time).toUTCString(), 'Keep-Alive', 'timeout=60'],
      status: 200, durationMs: 1.25, requestBody: enc.encode(ORDER_JSON), requestTruncated: false,
      responseBody: enc.encode(ANSWER), responseTruncated: false,
    };
  });
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-stages-'));
const backend = await openStore(`sqlite:${join(dir, 'db.sqlite')}`, {});
const store = backend.forPlugin('capture');
await store.migrate(captureMigrations);
const writer = new RecordWriter(store);

const spent = { pack: 0, unpack: 0, govern: 0, rows: 0, insert: 0, baseline: 0 };
const dec = new TextDecoder();
for (let round = 0; round < BATCHES + 20; round++) {
  const measured = round >= 20; // the first batches warm the JIT up
  const exchanges = batch();
  const lap = (stage: keyof typeof spent, t0: number) => { if (measured) spent[stage] += performance.now() - t0; };
  let t = performance.now();
  for (const e of exchanges) {
    JSON.stringify(JSON.parse(dec.decode(e.requestBody!)));
    JSON.stringify(JSON.parse(dec.decode(e.responseBody!)));
  }
  lap('baseline', t);
  t = performance.now();
  const packed = packExchanges(exchanges);
  lap('pack', t);
  t = performance.now();
  const unpacked = unpackExchanges(packed);
  lap('unpack', t);
  t = performance.now();
  const { records } = await governBatch({ policy, exchanges: unpacked });
  lap('govern', t);
  t = performance.now();
  const rows = records.map(recordRow);
  const rollups = foldRollups(records, 'tenant');
  lap('rows', t);
  t = performance.now();
  await writer.write({ rows, rollups });
  lap('insert', t);
}
await backend.close();
rmSync(dir, { recursive: true, force: true });

const perRecord = (ms: number) => (ms * 1000) / (BATCHES * BATCH);
const baseline = perRecord(spent.baseline);
for (const stage of ['pack', 'unpack', 'govern', 'rows', 'insert'] as const) {
  const us = perRecord(spent[stage]);
  console.log(`govern stage ${stage}: ${us.toFixed(2)} µs/record (ratio ${(us / baseline).toFixed(2)} vs baseline parse+stringify of both bodies at ${baseline.toFixed(2)} µs)`);
}
