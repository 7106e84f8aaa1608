import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestRuntime } from '@vigil/plugin-sdk/testing';
import exporters from '../../../../plugins/exporters/index.js';
import { exportersConfigSchema } from '../../../../plugins/exporters/config-schema.js';
import { fixture } from '../../../support/paths.js';
import { ConfigErrors } from '../../../../runtime/config/errors.js';
import { waitFor } from '../../../support/net.js';
import { tempDir } from '../../../support/tmp.js';
import { verifyBodySignature } from '@vigil/plugin-sdk';
import { signedHeaders, startReceiver } from './support/http-receiver.js';
import { recordJson, textsOf } from './support/governed-records.js';

const SECRET = 'hook-secret';
const RAW_SECRET = 'raw-unredacted-4111111111111111';
const linesOf = (path: string): string[] => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);
const idsInFile = (path: string): string[] => linesOf(path).map((l) => JSON.parse(l).id);

test('the plugin declares its name, schema and no core needs', () => {
  assert.is(exporters.name, 'exporters');
  assert.is(exporters.configSchema, exportersConfigSchema);
  assert.equal(exporters.needs, []);
});

test('in a real runtime, file, webhook, otlp and exec exporters all receive the governed records published on gateway.record, and never a raw exchange', async () => {
  const dir = tempDir();
  const hook = await startReceiver();
  const collector = await startReceiver();
  const archive = join(dir.path, 'archive', 'records.jsonl');
  const piped = join(dir.path, 'piped.jsonl');
  const rt = await startTestRuntime({
    plugins: [],
    config: {
      exporters: [
        { name: 'archive', type: 'file', path: archive, batch_timeout: '10ms' },
        { name: 'siem', type: 'webhook', url: `${hook.url}/ingest`, secret: SECRET, batch_timeout: 10 },
        { name: 'otel', type: 'otlp', endpoint: collector.url, protocol: 'http/json', batch_timeout: '10ms', service_name: 'gw' },
        { name: 'pipe', type: 'exec', command: process.execPath, args: [fixture('exporters', 'append-lines.mjs'), piped], batch_timeout: '10ms' },
      ],
    },
  });
  try {
    const records = Array.from({ length: 20 }, (_, i) => recordJson(i));
    for (const r of records) rt.publish('gateway.record', r);
    // A raw exchange carries unredacted bytes; no exporter subscribes to it.
    (rt.publish as (topic: string, message: unknown) => number)('gateway.exchange', { id: 'raw-1', requestBody: RAW_SECRET });
    const expected = records.map((r) => r.id);
    const hookIds = () => hook.requests.flatMap((q) => JSON.parse(q.body.toString()).records.map((r: { id: string }) => r.id));
    const otlpIds = () => collector.requests.flatMap((q) => JSON.parse(q.body.toString()).resourceLogs[0].scopeLogs[0].logRecords
      .map((l: { attributes: { key: string; value: { stringValue?: string } }[] }) => l.attributes.find((a) => a.key === 'vigil.record.id')!.value.stringValue));
    await waitFor(() => idsInFile(archive).length === 20 && hookIds().length === 20 && otlpIds().length === 20 && idsInFile(piped).length === 20,
      { what: 'every exporter to receive 20 records', timeoutMs: 15_000 });
    // Each exporter writes the text it was handed, as it is.
    assert.equal(linesOf(archive), textsOf(records));
    assert.equal(linesOf(piped), textsOf(records));
    const textOf = new Map(records.map((r) => [r.id, r.json]));
    for (const q of hook.requests) {
      const ids = (JSON.parse(q.body.toString()).records as { id: string }[]).map((r) => r.id);
      assert.is(q.body.toString(), `{"records":[${ids.map((id) => textOf.get(id)).join(',')}]}`);
    }
    assert.equal(hookIds(), expected);
    assert.equal(otlpIds(), expected);
    assert.equal(collector.requests.flatMap((q) => JSON.parse(q.body.toString()).resourceLogs[0].scopeLogs[0].logRecords
      .map((l: { body: { stringValue: string } }) => l.body.stringValue)), textsOf(records));
    for (const q of hook.requests) assert.ok(verifyBodySignature(SECRET, q.body, signedHeaders(q)));
    const everything = [readFileSync(archive, 'utf8'), readFileSync(piped, 'utf8'),
      ...hook.requests.map((q) => q.body.toString()), ...collector.requests.map((q) => q.body.toString())].join('\n');
    assert.not.match(everything, RAW_SECRET);
    assert.not.match(everything, 'raw-1');
    // Each exporter counts a batch as sent once its send resolved (the file written, the receiver's answer read),
    // which may be a moment after the receiver or the file shows it: wait for the four counters.
    const names = ['archive', 'siem', 'otel', 'pipe'];
    const metrics = await waitFor(async () => {
      const text = await rt.metrics();
      return names.every((name) => text.includes(`vigil_export_sent_total{exporter="${name}"} 20`) && text.includes(`vigil_export_dropped_total{exporter="${name}"} 0`)) ? text : '';
    }, { timeoutMs: 10_000, intervalMs: 250, what: 'every exporter\'s sent counter at 20' }).catch(async () => rt.metrics());
    for (const name of names) {
      assert.match(metrics, `vigil_export_sent_total{exporter="${name}"} 20`);
      assert.match(metrics, `vigil_export_dropped_total{exporter="${name}"} 0`);
    }
  } finally {
    await rt.stop();
    await hook.close();
    await collector.close();
    dir.cleanup();
  }
});

test('a wasm exporter transforms the governed records for its next exporter, which receives nothing else', async () => {
  const dir = tempDir();
  const errors = join(dir.path, 'errors.jsonl');
  const rt = await startTestRuntime({
    plugins: [],
    config: {
      exporters: [
        { name: 'errors-file', type: 'file', path: errors, batch_timeout: '10ms' },
        { name: 'errors-only', type: 'wasm', module: fixture('exporters', 'errors-only.wasm'), next: 'errors-file', batch_timeout: '10ms' },
      ],
    },
  });
  try {
    for (let i = 0; i < 10; i++) rt.publish('gateway.record', recordJson(i, { status: i % 3 === 0 ? 500 : 200 }));
    await waitFor(() => idsInFile(errors).length === 4, { what: 'the four 5xx summaries' });
    const lines = readFileSync(errors, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.equal(lines, [0, 3, 6, 9].map((i) => ({ id: `rec-${i}`, summary: 'POST /api/payments → 500', tenant: 'acme' })));
    // errors-file counts its batch as sent once the file write resolved, a moment after the lines are readable.
    const metrics = await waitFor(async () => {
      const text = await rt.metrics();
      return text.includes('vigil_export_sent_total{exporter="errors-only"} 10') && text.includes('vigil_export_sent_total{exporter="errors-file"} 4') ? text : '';
    }, { timeoutMs: 10_000, intervalMs: 250, what: 'the two exporters\' sent counters' }).catch(async () => rt.metrics());
    assert.match(metrics, 'vigil_export_sent_total{exporter="errors-only"} 10');
    assert.match(metrics, 'vigil_export_sent_total{exporter="errors-file"} 4');
    assert.match(metrics, 'vigil_bus_delivered_total{topic="gateway.record",subscriber="exporters.errors-only"} 10');
    assert.not.match(metrics, 'subscriber="exporters.errors-file"');
  } finally {
    await rt.stop();
    dir.cleanup();
  }
});

test('stopping the runtime delivers what the queues still hold', async () => {
  const dir = tempDir();
  const archive = join(dir.path, 'records.jsonl');
  const rt = await startTestRuntime({
    plugins: [],
    config: { exporters: [{ name: 'archive', type: 'file', path: archive, batch_timeout: '1h', batch_size: 1000 }] },
  });
  for (let i = 0; i < 5; i++) rt.publish('gateway.record', recordJson(i));
  await waitFor(async () => /vigil_export_queue_depth\{exporter="archive"\} 5/.test(await rt.metrics()), { what: 'the records to be queued' });
  assert.equal(idsInFile(archive), [], 'nothing is written before the batch is due');
  await rt.stop();
  assert.equal(idsInFile(archive), ['rec-0', 'rec-1', 'rec-2', 'rec-3', 'rec-4']);
  dir.cleanup();
});

test('config errors stop the runtime with the key path: a key of another type, a raw topic, a zero size, a duplicate name', async () => {
  const cases: [unknown[], RegExp][] = [
    [[{ name: 'a', type: 'file', path: 'a.jsonl', url: 'http://127.0.0.1:1/' }], /exporters\[0\]\.url is not allowed here/],
    [[{ name: 'a', type: 'file', path: 'a.jsonl', topics: ['gateway.exchange'] }], /exporters\[0\]\.topics\[0\] must be one of: gateway\.record/],
    [[{ name: 'a', type: 'webhook' }], /missing required key exporters\[0\]\.url/],
    [[{ name: 'a', type: 'file', path: 'a.jsonl', colour: 'red' }], /unknown key exporters\[0\]\.colour/],
    [[{ name: 'a', type: 'file', path: 'a.jsonl', max_bytes: '0kb' }], /exporters\[0\]\.max_bytes must be ≥ 1/],
    [[{ name: 'a', type: 'file', path: 'a.jsonl' }, { name: 'a', type: 'file', path: 'b.jsonl' }], /exporters\[1\]\.name: "a" is already the name of exporters\[0\]/],
    [[{ name: 'w', type: 'wasm', module: 'no-such-module.wasm', next: 'w2' }, { name: 'w2', type: 'file', path: 'a.jsonl' }], /exporters\[0\]\.module: cannot read the wasm module .*no-such-module\.wasm/],
  ];
  for (const [config, message] of cases) {
    try {
      const rt = await startTestRuntime({ plugins: [], config: { exporters: config } });
      await rt.stop();
      assert.unreachable(`accepted ${JSON.stringify(config)}`);
    } catch (err) {
      assert.match((err as Error).message, message);
    }
  }
});

test('a list the schema accepts but that cannot work is a config problem with its line, found before anything starts', async () => {
  const dir = tempDir();
  const notExecutable = join(dir.path, 'not-executable.sh');
  writeFileSync(notExecutable, '#!/bin/sh\n', { mode: 0o644 });
  const cases: [unknown[], string, RegExp][] = [
    [[{ name: 'a', type: 'file', path: 'a.jsonl' }, { name: 'a', type: 'file', path: 'b.jsonl' }], 'exporters[1].name', /"a" is already the name of exporters\[0\]/],
    [[{ name: 'w', type: 'wasm', module: 'm.wasm', next: 'zz' }], 'exporters[0].next', /no exporter is named "zz"/],
    [[{ name: 'w1', type: 'wasm', module: 'm.wasm', next: 'w2' }, { name: 'w2', type: 'wasm', module: 'm.wasm', next: 'w1' }], 'exporters[0].next', /loop \(w1 -> w2 -> w1\)/],
    [[{ name: 'p', type: 'exec', command: notExecutable }], 'exporters[0].command', /not-executable\.sh is not an executable file/],
  ];
  for (const [config, keyPath, message] of cases) {
    try {
      const rt = await startTestRuntime({ plugins: [], config: { exporters: config } });
      await rt.stop();
      assert.unreachable(`accepted ${JSON.stringify(config)}`);
    } catch (err) {
      const problems = (err as { code?: string; problems?: { code: string; keyPath: string; line: number; message: string }[] }).problems;
      assert.is((err as { code?: string }).code, ConfigErrors.INVALID, String(err));
      assert.is(problems?.length, 1);
      assert.is(problems![0].code, ConfigErrors.VALUE);
      assert.is(problems![0].keyPath, keyPath);
      assert.ok(problems![0].line > 0, 'placed in the file');
      assert.match(problems![0].message, message);
    }
  }
  dir.cleanup();
});

test.run();
