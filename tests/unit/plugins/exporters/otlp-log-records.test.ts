import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { hrTimeOf, toLogRecord } from '../../../../plugins/exporters/otlp-log-records.js';
import { governedRecord } from './support/governed-records.js';

const resource = resourceFromAttributes({ 'service.name': 'vigil' });
const scope = { name: 'vigil.exporters' };
const map = (r: Record<string, unknown>) => toLogRecord(r, resource, scope, 1_800_000_000_000);

test('hrTimeOf splits epoch milliseconds into seconds and nanoseconds', () => {
  assert.equal(hrTimeOf(1_700_000_000_123), [1_700_000_000, 123_000_000]);
  assert.equal(hrTimeOf(1_700_000_000_000.5), [1_700_000_000, 500_000]);
  assert.equal(hrTimeOf(0), [0, 0]);
});

test('a governed record becomes a summary body, its time, a severity from its status, and flat attributes', () => {
  const r = toLogRecord(governedRecord(1, { status: 404 }) as unknown as Record<string, unknown>, resource, scope, 1_800_000_000_000);
  assert.is(r.body, 'POST /api/payments 404');
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
    'vigil.query.page': '1',
    'http.status_code': 404,
    'vigil.duration_ms': 12.5,
    'http.request.header.content-type': 'application/json',
    'http.request.header.authorization': '[REDACTED]',
    'http.response.header.content-type': 'application/json',
    'vigil.request_body': '{"amount":10,"card":"[REDACTED]","note":"café ✓"}',
    'vigil.response_body': '{"ok":true}',
    'vigil.labels.tenant': 'acme',
    'vigil.matched_rules': ['payments'],
    'vigil.sampled': true,
    'vigil.truncated': false,
    'vigil.partial': false,
  });
});

test('text bodies stay text, several routes are all kept, restricted headers are omitted', () => {
  const r = map(governedRecord(1, {
    request_body: 'plain text', route: ['/a/**', '/a/b'], headers: null, tokens: 42, dropped_reason: 'response_body: truncated',
  }) as unknown as Record<string, unknown>);
  assert.is(r.attributes['vigil.request_body'], 'plain text');
  assert.is(r.attributes['http.route'], '/a/**');
  assert.equal(r.attributes['vigil.routes'], ['/a/**', '/a/b']);
  assert.not.ok(Object.keys(r.attributes).some((k) => k.startsWith('http.request.header.')));
  assert.is(r.attributes['vigil.tokens'], 42);
  assert.is(r.attributes['vigil.dropped_reason'], 'response_body: truncated');
});

test('records of other shapes: unknown fields become vigil.<field>, maps flatten, mixed arrays become JSON text', () => {
  const r = map({ kind: 'eval', score: 0.5, meta: { model: 'm1', deep: { a: { b: 1 } } }, tags: ['x', 2], time: 'not a number' });
  assert.is(r.body, 'vigil record');
  assert.is(r.severityText, 'INFO');
  assert.equal(r.hrTime, [1_800_000_000, 0], 'a record without a numeric time gets the observed time');
  assert.is(r.attributes['vigil.kind'], 'eval');
  assert.is(r.attributes['vigil.score'], 0.5);
  assert.is(r.attributes['vigil.meta.model'], 'm1');
  assert.is(r.attributes['vigil.meta.deep.a'], '{"b":1}');
  assert.is(r.attributes['vigil.tags'], '["x",2]');
  assert.not.ok('vigil.time' in r.attributes);
});

test.run();
