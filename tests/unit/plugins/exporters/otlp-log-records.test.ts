import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { hrTimeOf, toLogRecord } from '../../../../plugins/exporters/otlp-log-records.js';
import type { ExportRecord } from '../../../../plugins/exporters/exporter.js';
import { recordJson } from './support/governed-records.js';

const resource = resourceFromAttributes({ 'service.name': 'vigil' });
const scope = { name: 'vigil.exporters' };
const map = (r: ExportRecord) => toLogRecord(r, resource, scope, 1_800_000_000_000);

test('hrTimeOf splits epoch milliseconds into seconds and nanoseconds', () => {
  assert.equal(hrTimeOf(1_700_000_000_123), [1_700_000_000, 123_000_000]);
  assert.equal(hrTimeOf(1_700_000_000_000.5), [1_700_000_000, 500_000]);
  assert.equal(hrTimeOf(0), [0, 0]);
});

test('a governed record becomes its JSON text as the body, its time, a severity from its status, and its key fields as attributes', () => {
  const record = recordJson(1, { status: 404 });
  const r = map(record);
  assert.is(r.body, record.json);
  assert.equal(r.hrTime, [1_700_000_000, 1_000_000]);
  assert.equal(r.hrTimeObserved, [1_800_000_000, 0]);
  assert.is(r.severityText, 'WARN');
  assert.is(r.resource, resource);
  assert.is(r.instrumentationScope, scope);
  assert.equal(r.attributes, {
    'vigil.record.id': 'rec-1',
    'http.method': 'POST',
    'url.path': '/api/payments',
    'http.route': '/api/payments/**',
    'http.status_code': 404,
    'vigil.labels.tenant': 'acme',
  });
});

test('several routes are all kept, the error code is error.type, 5xx is an error, no status is info', () => {
  const r = map(recordJson(1, { route: ['/a/**', '/a/b'], status: 502, error: 'VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE', labels: {} }));
  assert.is(r.attributes['http.route'], '/a/**');
  assert.equal(r.attributes['vigil.routes'], ['/a/**', '/a/b']);
  assert.is(r.attributes['error.type'], 'VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE');
  assert.is(r.severityText, 'ERROR');
  assert.not.ok(Object.keys(r.attributes).some((k) => k.startsWith('vigil.labels.')));
  assert.is(map(recordJson(1, { status: 0 })).severityText, 'INFO');
});

test('a record of another shape (a wasm module\'s output) keeps its text as the body; only the fields it holds become attributes', () => {
  const r = map({ json: '{"kind":"eval","score":0.5}' });
  assert.is(r.body, '{"kind":"eval","score":0.5}');
  assert.is(r.severityText, 'INFO');
  assert.equal(r.hrTime, [1_800_000_000, 0], 'a record without a time gets the observed time');
  assert.equal(r.attributes, {});
});

test.run();
