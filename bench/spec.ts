// Benchmark: `vigil spec` over the field observations of 100,000 exchanges on 200 routes (50 resources, each with
// a list, a create, a get by id and a patch; bodies with nested objects, arrays, nullable and formatted fields, 404s).
// The exchanges go through the real recording: governance's worker batch function with `recordFields` (100 per
// batch, as capture sends them), capture's FieldAccumulator, and capture's writer into `capture_fields` (SQLite,
// capture's migrations), as `vigil run` would leave them. Baseline, same run: reading the rows (the command's own SELECT and JSON parse). Timed: the
// inference (`inferSpec`), the YAML text, and the whole command (`vigil spec -config`, start-up included).
//
// Usage: node dist/bench/spec.js [exchanges, default 100000]
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { tempDir } from '../tests/support/tmp.js';
import { runVigil, writeConfig } from '../tests/support/vigil-process.js';
import { uuidv7 } from '@vigil/plugin-sdk';
import type { RawExchange } from '../gateway/exchange/raw-exchange.js';
import type { Exchange } from '../tests/support/field-observations.js';
import { openStore } from '../runtime/store/index.js';
import { compilePolicy } from '../policies/compile.js';
import type { PolicyConfig } from '../policies/schema.js';
import governBatch from '../gateway/govern/govern-worker.js';
import { FieldAccumulator } from '../gateway/fields/field-accumulator.js';
import { writeFields } from '../gateway/fields/field-writer.js';
import { captureMigrations } from '../gateway/records/migrations.js';
import { readFieldObservations } from '../gateway/fields/field-reads.js';
import { inferSpec } from '../plugins/apitools/openapi/infer-spec.js';
import { median } from './support/median.js';

const COUNT = Number(process.argv[2] ?? 100_000);
const RESOURCES = 50;
const ROUNDS = 5;
const work = tempDir('vigil-bench-spec-');

/** A deterministic stream: resource r, operation by i, a record with some optional and nullable fields. */
function* exchanges(): Generator<Exchange> {
  for (let i = 0; i < COUNT; i++) {
    const r = i % RESOURCES;
    const name = `res${r}s`;
    const id = i % 997;
    const item = {
      id, name: `n${i}`, email: `u${i}@example.com`, created_at: '2026-11-26T03:00:00Z', [`field_${r}`]: i % 7 === 0 ? null : 'v',
      price: i % 3 ? 9.5 : 10, tags: ['a', 'b'], owner: { id: `5f3a9c2e-1b2d-4c3e-9f00-${String(id).padStart(12, '0')}`, site: 'https://example.com' },
      ...(i % 10 ? { note: 'optional' } : {}),
    };
    const time = 1_764_000_000_000 + i * 1000;
    switch ((i / RESOURCES | 0) % 4) {
      case 0: yield { method: 'GET', path: `/api/v1/${name}?page=${i % 5}`, status: 200, headers: { 'x-tenant-id': 't' }, responseBody: { data: [item, item], next: null }, time }; break;
      case 1: yield { method: 'POST', path: `/api/v1/${name}`, status: i % 20 ? 201 : 422, requestBody: { name: item.name, email: item.email, tags: item.tags }, responseBody: i % 20 ? item : { error: 'invalid', fields: ['email'] }, time }; break;
      case 2: yield { method: 'GET', path: `/api/v1/${name}/${id}`, status: i % 25 ? 200 : 404, responseBody: i % 25 ? item : { error: 'not found' }, time }; break;
      default: yield { method: 'PATCH', path: `/api/v1/${name}/${id}`, status: 200, requestBody: { note: 'x' }, responseBody: item, time };
    }
  }
}

const policy = { rules: [{ name: 'all', match: { path: '/**' }, redact: { json_fields: ['$.email'] } }] } as unknown as PolicyConfig;
const compiled = compilePolicy(policy);
const enc = new TextEncoder();
const pairs = (headers: Record<string, string> = {}) => Object.entries(headers).flat();

/** An exchange as the proxy hands it to governance. */
function raw(x: Exchange): RawExchange {
  const time = x.time ?? Date.now();
  const path = x.path.split('?')[0];
  const request = x.requestBody === undefined ? undefined : enc.encode(JSON.stringify(x.requestBody));
  const response = x.responseBody === undefined ? undefined : enc.encode(JSON.stringify(x.responseBody));
  return {
    id: uuidv7(time), time, method: x.method, target: x.path, path, labels: {},
    ruleIndexes: compiled.decide(x.method, path).ruleIndexes as number[],
    requestHeaders: ['host', 'api.example.com', ...(request ? ['content-type', 'application/json'] : []), ...pairs(x.headers)],
    responseHeaders: ['content-type', 'application/json', ...pairs(x.responseHeaders)],
    status: x.status, durationMs: 1, requestBody: request, requestTruncated: false, responseBody: response, responseTruncated: false,
  } as RawExchange;
}

try {
  const t0 = performance.now();
  const accumulator = new FieldAccumulator();
  let batch: RawExchange[] = [];
  for (const x of exchanges()) {
    batch.push(raw(x));
    if (batch.length === 100) {
      accumulator.add((await governBatch({ policy, exchanges: batch, recordFields: true })).fields!);
      batch = [];
    }
  }
  if (batch.length > 0) accumulator.add((await governBatch({ policy, exchanges: batch, recordFields: true })).fields!);
  const file = join(work.path, 'vigil.db');
  const backend = await openStore(`sqlite:${file}`);
  const store = backend.forPlugin('capture');
  await store.migrate(captureMigrations);
  const rows = accumulator.take();
  await writeFields(store, rows);
  const routes = new Set(rows.map((r) => r.route)).size;
  console.log(`  ${COUNT} exchanges over ${routes} routes, recorded through governance and capture → ${rows.length} capture_fields rows (${((performance.now() - t0) / 1000).toFixed(1)} s)`);

  const read: number[] = [];
  const infer: number[] = [];
  const yaml: number[] = [];
  let paths = 0;
  for (let round = 0; round < ROUNDS; round++) {
    globalThis.gc?.();
    let t = performance.now();
    const fields = await readFieldObservations(store);
    read.push(performance.now() - t);
    t = performance.now();
    const doc = inferSpec(fields);
    infer.push(performance.now() - t);
    t = performance.now();
    toYaml(doc, { lineWidth: 0, aliasDuplicateObjects: false });
    yaml.push(performance.now() - t);
    paths = Object.keys(doc.paths).length;
  }
  await backend.close();
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(`  read rows (baseline): ${ms(median(read))}   infer: ${ms(median(infer))}   YAML: ${ms(median(yaml))}   (medians of ${ROUNDS}; ${paths} paths)`);
  const config = writeConfig(work.path, `data_dir: ${work.path}/data\nstorage: { url: "sqlite:${file}" }\ncapture: {}\n`);
  const tc = performance.now();
  const cli = await runVigil(['spec', '-config', config, '--out', join(work.path, 'api.yaml'), '--format', 'json']);
  if (cli.code !== 0) throw new Error(cli.stderr);
  console.log(`  vigil spec -config (whole command, start-up included): ${ms(performance.now() - tc)}, ${JSON.parse(cli.stdout).operations} operations`);
  console.log(`spec-infer: ${ms(median(infer))} (ratio ${(median(infer) / median(read)).toFixed(2)} vs reading the rows)`);
} finally {
  work.cleanup();
}
