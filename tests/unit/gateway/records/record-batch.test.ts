import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deserialize, serialize } from 'node:v8';
import { recordJson, type StorableRecord } from '../../../../gateway/records/governed-record.js';
import { packRecords, unpackRecords } from '../../../../gateway/records/record-batch.js';

function storable(n: number, over: Partial<StorableRecord> = {}): StorableRecord {
  return {
    id: `r-${n}`, time: 1_700_000_000_000 + n, method: 'POST', path: `/api/é/${n}`, route: ['/api/**'], query: {}, status: 200,
    duration_ms: 3, headers: null, response_headers: null, request_body_json: '{"a": 1.50}', response_body_json: 'null',
    labels: { tenant: 'acme' }, matched_rules: ['api'], tokens: null, sampled: true, truncated: false, partial: false, dropped_reason: null,
    error: null, ...over,
  };
}

test('a batch packed in the worker unpacks, after the clone postMessage makes, into each record\'s text and key fields', () => {
  const records = [
    storable(0),
    storable(1, { route: [], labels: {}, status: 0, error: 'client_aborted' }),
    storable(2, { route: ['/a/**', '/a/b', '/**'], labels: { tenant: 't', region: 'eu ✓', empty: '' } }),
  ];
  const texts = records.map((r) => recordJson(r));
  const unpacked = unpackRecords(deserialize(serialize(packRecords(records, texts))));
  assert.equal(unpacked, records.map((r, i) => ({
    json: texts[i], id: r.id, time: r.time, method: r.method, path: r.path, route: r.route, status: r.status, labels: r.labels, error: r.error,
  })));
  assert.is(unpacked[0].json, texts[0], 'the text itself, not a copy made by parsing');
});

test('a label named __proto__ is a label, not the prototype of the labels object', () => {
  const labels = JSON.parse('{"__proto__":"x","tenant":"acme"}') as Record<string, string>;
  const [r] = unpackRecords(packRecords([storable(0, { labels })], ['{}']));
  assert.equal(Object.keys(r.labels), ['__proto__', 'tenant']);
  assert.is(Object.getPrototypeOf(r.labels), Object.prototype);
  assert.is(Object.getOwnPropertyDescriptor(r.labels, '__proto__')?.value, 'x');
});

test('an empty batch packs and unpacks to nothing', () => {
  assert.equal(unpackRecords(packRecords([], [])), []);
});

test.run();
