import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPermanent } from '@vigil/plugin-sdk';
import { createWasmExporter, type WasmExporterOptions } from '../../../../plugins/exporters/wasm-exporter.js';
import { ExporterErrors } from '../../../../plugins/exporters/errors.js';
import { fixture } from '../../../support/paths.js';
import { tempDir } from '../../../support/tmp.js';
import { recordingLogger } from '../../runtime/delivery/support/recording-logger.js';
import { startReceiver } from './support/http-receiver.js';
import { governedRecord } from './support/governed-records.js';
import type { ExportRecord } from '../../../../plugins/exporters/exporter.js';

const guest = fixture('exporters', 'errors-only.wasm');
const signal = () => new AbortController().signal;
/** A record as the bus carries it; `overrides` may add fields a GovernedRecord lacks (the guest's test hooks). */
const record = (n: number, overrides: Record<string, unknown> = {}): ExportRecord => {
  const r = { ...governedRecord(n), ...overrides };
  return { json: JSON.stringify(r), id: r.id, time: r.time, method: r.method, path: r.path, route: r.route, status: r.status, labels: r.labels, error: r.error };
};
/** What the next exporter got, as the objects the module wrote. */
const parsed = (batches: ExportRecord[][]) => batches.map((b) => b.map((r) => JSON.parse(r.json) as Record<string, unknown>));

async function setup(options: Partial<WasmExporterOptions> = {}) {
  const forwarded: ExportRecord[][] = [];
  const failures: string[] = [];
  const exporter = await createWasmExporter({
    name: 'filter', module: guest, next: 'siem',
    forward: (records) => { forwarded.push(records); return records.length; },
    onFailure: (reason) => failures.push(reason),
    ...options,
  }, { log: recordingLogger() });
  return { exporter, forwarded, failures };
}

test('filters and transforms a batch in the module and forwards the result to the next exporter, non-ASCII intact', async () => {
  const { exporter, forwarded, failures } = await setup();
  await exporter.send([record(0), record(1, { status: 503, path: '/api/café' }), record(2, { status: 404, labels: {} })], signal());
  await exporter.shutdown();
  assert.equal(parsed(forwarded), [[
    { id: 'rec-1', summary: 'POST /api/café → 503', tenant: 'acme' },
    { id: 'rec-2', summary: 'POST /api/payments → 404' },
  ]]);
  // The key fields the module's records hold go with them (the next exporter may be OTLP); the rest are absent.
  assert.equal(forwarded[0].map(({ json: _json, ...fields }) => fields), [{ id: 'rec-1' }, { id: 'rec-2' }]);
  assert.equal(failures, []);
});

test('a batch the module filters out entirely forwards nothing', async () => {
  const { exporter, forwarded } = await setup();
  await exporter.send([record(0), record(1)], signal());
  await exporter.shutdown();
  assert.equal(forwarded, []);
});

test('fails closed: a trap, non-JSON output or the wrong shape forwards nothing and is permanent, counted by reason', async () => {
  const { exporter, forwarded, failures } = await setup();
  const outcomes: [boolean, string | undefined, string][] = [];
  for (const hook of ['trap', 'garbage', 'shape']) {
    try {
      await exporter.send([record(1, { status: 500 }), record(2, { status: 500, test_output: hook })], signal());
      assert.unreachable(`${hook} accepted`);
    } catch (err) {
      outcomes.push([isPermanent(err), (err as { code?: string }).code, (err as Error).message]);
    }
  }
  // The instance that trapped was replaced: the next call is served.
  await exporter.send([record(3, { status: 500 })], signal());
  await exporter.shutdown();
  assert.equal(outcomes.map((o) => [o[0], o[1]]), [
    [true, ExporterErrors.TRANSFORM], [true, ExporterErrors.TRANSFORM], [true, ExporterErrors.TRANSFORM],
  ]);
  assert.match(outcomes[0][2], 'trapped on purpose');
  assert.match(outcomes[1][2], 'this is not json');
  assert.equal(failures, ['trap', 'invalid_output', 'invalid_output']);
  assert.equal(parsed(forwarded).map((b) => b.map((r) => r.id)), [['rec-3']]);
});

test('HTTP from the module reaches allowed hosts only', async () => {
  const receiver = await startReceiver((_req, res) => { res.end('tier-gold ✓'); });
  const allowed = await setup({ allowedHosts: ['127.0.0.1'] });
  await allowed.exporter.send([record(1, { status: 500, enrich_url: `${receiver.url}/tier` })], signal());
  await allowed.exporter.shutdown();
  assert.is(parsed(allowed.forwarded)[0][0].enriched, 'tier-gold ✓');

  const denied = await setup({ allowedHosts: ['collector.example.com'] });
  try {
    await denied.exporter.send([record(1, { status: 500, enrich_url: `${receiver.url}/tier` })], signal());
    assert.unreachable();
  } catch (err) {
    assert.ok(isPermanent(err));
    assert.match((err as Error).message, 'not allowed');
  }
  await denied.exporter.shutdown();
  await receiver.close();
  assert.is(receiver.requests.length, 1, 'the denied module never reached the receiver');
  assert.equal(denied.forwarded, []);
});

test('a module that cannot be loaded is refused when the exporter is created', async () => {
  const dir = tempDir();
  const bogus = join(dir.path, 'bogus.wasm');
  writeFileSync(bogus, 'not wasm');
  for (const module of [bogus, join(dir.path, 'missing.wasm')]) {
    try {
      await createWasmExporter({ name: 'filter', module, next: 'x', forward: () => 0 }, { log: recordingLogger() });
      assert.unreachable(`${module} accepted`);
    } catch (err) {
      assert.match((err as Error).message, module);
    }
  }
  dir.cleanup();
});

test('send after shutdown is refused as permanent', async () => {
  const { exporter } = await setup();
  await exporter.shutdown();
  await exporter.shutdown();
  try { await exporter.send([record(1)], signal()); assert.unreachable(); } catch (err) { assert.ok(isPermanent(err)); }
});

test.run();
