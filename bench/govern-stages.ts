// Benchmark: where a governed record's CPU goes on the telemetry lane, stage by stage, single-threaded: decoding and
// redacting (governBatch), building the stored row (recordRow), and the SQLite insert. Baseline: a bare
// JSON.parse + JSON.stringify of the same two bodies, the least any governance must do.
// Prints `govern stage <name>: X µs/record (ratio X.XX vs baseline)`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawExchange } from '@vigil/plugin-sdk';
import { compilePolicy } from '../policies/compile.js';
import type { PolicyConfig } from '../policies/schema.js';
import governBatch from '../plugins/redaction/govern-worker.js';
import { captureMigrations } from '../plugins/capture/migrations.js';
import { recordRow, RECORD_COLUMNS } from '../plugins/capture/record-writer.js';
import { openStore } from '../runtime/store/index.js';

const N = 20_000;
const policy: PolicyConfig = {
  rules: [{
    name: 'api', match: { path: '/api/**' },
    redact: { headers: ['authorization'], json_fields: ['$.card.number', '$.*.ssn', '$.**.password'] },
    labels: { tenant: 'header:X-Tenant' }, meter: { tokens: '$.usage.total_tokens' },
  }],
};
const decision = compilePolicy(policy).decide('POST', '/api/orders');
const enc = new TextEncoder();
const requestText = JSON.stringify({
  customer: { name: 'Ada Lovelace', email: 'ada@example.com', ssn: '123-45-6789', password: 'hunter2' },
  card: { number: '4111111111111111', expiry: '12/29', holder: 'ADA LOVELACE' },
  items: Array.from({ length: 8 }, (_, i) => ({ sku: `SKU-${1000 + i}`, qty: i + 1, price: 9.99 + i, note: 'gift wrap, no invoice in the box' })),
});
const responseText = JSON.stringify({ id: 'ord_123', status: 'accepted', usage: { total_tokens: 321 } });
const exchanges: RawExchange[] = Array.from({ length: N }, (_, i) => ({
  id: `r${i}`, time: Date.now(), method: 'POST', target: '/api/orders?token=abc', path: '/api/orders',
  ruleIndexes: decision.ruleIndexes as number[], labels: { tenant: `t${i % 20}` },
  requestHeaders: ['Content-Type', 'application/json', 'Authorization', 'Bearer secret', 'X-Tenant', `t${i % 20}`, 'User-Agent', 'bench/1.0', 'Accept', '*/*'],
  responseHeaders: ['Content-Type', 'application/json', 'Content-Length', String(responseText.length)],
  status: 200, durationMs: 3, requestBody: enc.encode(requestText), requestTruncated: false,
  responseBody: enc.encode(responseText), responseTruncated: false,
}));

const perRecord = (t0: number) => ((performance.now() - t0) * 1000) / N;
const dec = new TextDecoder();

let t = performance.now();
for (const e of exchanges) {
  JSON.stringify(JSON.parse(dec.decode(e.requestBody!)));
  JSON.stringify(JSON.parse(dec.decode(e.responseBody!)));
}
const baseline = perRecord(t);

t = performance.now();
const records = [];
for (let i = 0; i < N; i += 512) records.push(...(await governBatch({ policy, exchanges: exchanges.slice(i, i + 512) })).records);
const govern = perRecord(t);

t = performance.now();
const rows = records.map(recordRow);
const rowsUs = perRecord(t);

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-stages-'));
const store = await openStore(`sqlite:${join(dir, 'db.sqlite')}`, {});
const s = store.forPlugin('capture');
await s.migrate(captureMigrations);
t = performance.now();
for (let i = 0; i < N; i += 512) await s.insertMany(s.table('records'), RECORD_COLUMNS, rows.slice(i, i + 512));
const insertUs = perRecord(t);
await store.close();
rmSync(dir, { recursive: true, force: true });

for (const [name, us] of [['govern (decode, redact, label, meter)', govern], ['recordRow (serialise)', rowsUs], ['sqlite insertMany', insertUs]] as const) {
  console.log(`govern stage ${name}: ${us.toFixed(1)} µs/record (ratio ${(us / baseline).toFixed(2)} vs baseline parse+stringify of both bodies at ${baseline.toFixed(1)} µs)`);
}
