// Benchmark: event-loop CPU per governed record handed to an exporter, from the capture worker's message to the
// bytes the file exporter appends. The capture pool's threads build each record's JSON text; what the event loop
// does with it before a file, a pipe or a socket gets it is the cost measured here, per record.
//
// Measured: the worker's message holds each stored text with its key fields packed in a flat array
// (gateway/records/record-batch.ts); the event loop unpacks them into `gateway.record` payloads and the file exporter
// writes each text as a line (plugins/exporters/json-lines.ts).
// Baseline, in the same run: the message holds the texts alone; the event loop parses each one into a record object
// for the bus, and the file exporter stringifies it again (what an exporter that takes record objects costs).
//
// Records come from the real governance module: about 1.5 KB each, a JSON request body with redactions, headers and
// a label. The worker's structured clone is made once per round outside the timing (v8.serialize is what postMessage
// uses); its deserialisation happens on the event loop and is timed. The bus and the delivery queue cost the same
// either way and are left out.
//
// Usage: node dist/bench/record-export.js [records per round, default 4096]
import { deserialize, serialize } from 'node:v8';
import type { RawExchange } from '../gateway/exchange/raw-exchange.js';
import { compilePolicy } from '../policies/compile.js';
import type { PolicyConfig } from '../policies/schema.js';
import governBatch from '../gateway/govern/govern-worker.js';
import { recordRow } from '../gateway/records/record-writer.js';
import { packRecords, unpackRecords } from '../gateway/records/record-batch.js';
import { jsonLine } from '../plugins/exporters/json-lines.js';
import { median } from './support/median.js';

const N = Number(process.argv[2] ?? 4096);
const BATCH = 512; // capture's default batch: one worker message per batch
const ROUNDS = 7;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

const policy: PolicyConfig = {
  rules: [{
    name: 'api',
    match: { path: '/api/**' },
    redact: { headers: ['authorization'], query_params: ['token'], json_fields: ['$.card.number', '$.*.ssn', '$.**.password'] },
    labels: { tenant: 'header:X-Tenant' },
    meter: { tokens: '$.usage.total_tokens' },
  }],
};
const decision = compilePolicy(policy).decide('POST', '/api/orders');
const encoder = new TextEncoder();
const requestBody = encoder.encode(JSON.stringify({
  customer: { name: 'Ada Lovelace', email: 'ada@example.com', ssn: '123-45-6789', password: 'hunter2' },
  card: { number: '4111111111111111', expiry: '12/29', holder: 'ADA LOVELACE' },
  items: Array.from({ length: 8 }, (_, i) => ({ sku: `SKU-${1000 + i}`, qty: i + 1, price: 9.99 + i, note: 'gift wrap, no invoice in the box' })),
  shipping: { street: '12 Analytical Row', city: 'London', postcode: 'N1 9GU', country: 'GB' },
}));
const responseBody = encoder.encode(JSON.stringify({ id: 'ord_123', status: 'accepted', usage: { total_tokens: 321 } }));

const exchanges: RawExchange[] = Array.from({ length: N }, (_, i) => ({
  id: `r-${i}`,
  time: Date.now() - N + i,
  method: 'POST',
  target: '/api/orders?token=abc&page=2',
  path: '/api/orders',
  ruleIndexes: decision.ruleIndexes as number[],
  labels: { tenant: `tenant-${i % 20}` },
  requestHeaders: ['Content-Type', 'application/json', 'Authorization', 'Bearer secret', 'X-Tenant', `tenant-${i % 20}`],
  responseHeaders: ['Content-Type', 'application/json'],
  status: i % 50 === 0 ? 502 : 200,
  durationMs: 3 + (i % 97),
  requestBody,
  requestTruncated: false,
  responseBody,
  responseTruncated: false,
}));
const { records } = await governBatch({ policy, exchanges });
const texts = records.map((r) => recordRow(r).at(-1) as string);
const bytes = Math.round(texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / N);

// One message per batch, as the worker posts them.
const batches = Array.from({ length: Math.ceil(N / BATCH) }, (_, b) => [b * BATCH, Math.min(N, (b + 1) * BATCH)] as const);
const oldMessages = batches.map(([from, to]) => serialize(texts.slice(from, to)));
const newMessages = batches.map(([from, to]) => serialize(packRecords(records.slice(from, to), texts.slice(from, to))));

let sink = 0;
/**
 * Microseconds of CPU per record for one round over every message. CPU time, not the wall clock: on a shared machine
 * the wall clock also counts the time other processes held the core. The process has one busy thread here (the
 * collector runs before the round), so its CPU time is the event loop's.
 */
function perRecord(handle: (message: Buffer) => void, messages: Buffer[]): number {
  gc();
  const cpu0 = process.cpuUsage();
  for (const m of messages) handle(m);
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / N;
}

const parseAndStringify = (message: Buffer): void => {
  for (const json of deserialize(message) as string[]) {
    const record = JSON.parse(json) as object; // capture, for the bus
    sink += Buffer.from(JSON.stringify(record) + '\n', 'utf8').length; // the file exporter's line
  }
};
const storedText = (message: Buffer): void => {
  for (const record of unpackRecords(deserialize(message))) sink += jsonLine(record).length;
};

// Both ways must hand the exporter the same records; the new one byte for byte the stored text.
const newLines = unpackRecords(deserialize(newMessages[0])).map((r) => jsonLine(r).toString('utf8'));
if (newLines.some((line, i) => line !== texts[i] + '\n')) throw new Error('the new way does not write the stored text');
if (texts.some((t) => t.includes('4111111111111111'))) throw new Error('records are not governed');

const baseline: number[] = [];
const current: number[] = [];
for (let round = 0; round <= ROUNDS; round++) {
  const b = perRecord(parseAndStringify, oldMessages);
  const c = perRecord(storedText, newMessages);
  if (round > 0) { baseline.push(b); current.push(c); } // round 0 warms the JIT up
}
const b = median(baseline);
const c = median(current);
if (sink === 0) throw new Error('nothing was written');
console.log(`record-export: ${c.toFixed(2)} µs per record (ratio ${(c / b).toFixed(2)} vs parse+stringify at ${b.toFixed(2)} µs; ` +
  `${bytes}-byte records, ${N} per round in batches of ${BATCH}, median of ${ROUNDS} rounds)`);
