import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { governedRecordJson, recordJson, type GovernedRecord, type StorableRecord } from '../../../../gateway/records/governed-record.js';

const storable = (body: string): StorableRecord => ({
  id: 'r-1', time: 1_700_000_000_000, method: 'POST', path: '/api/orders', route: ['/api/**'], query: { page: '2' }, status: 200,
  duration_ms: 3.5, headers: { 'Content-Type': 'application/json' }, response_headers: null, request_body_json: body,
  response_body_json: '"line one\\nline two"', labels: { tenant: 'acme' }, matched_rules: ['api'], tokens: 12, sampled: true,
  truncated: false, partial: false, dropped_reason: null, error: null,
});

test('recordJson keeps a body\'s own text, and a formatted body still makes one line with the same value', () => {
  const body = '{\n  "amount": 1.50,\r\n  "note": "caf\\u00e9",\r  "text": "a\\nb"\n}';
  const json = recordJson(storable(body));
  assert.not.ok(/[\r\n]/.test(json), 'no raw line break');
  assert.match(json, '"amount": 1.50,');
  assert.match(json, '"note": "caf\\u00e9"');
  const parsed = JSON.parse(json) as GovernedRecord;
  assert.equal(parsed.request_body, JSON.parse(body));
  assert.is(parsed.response_body, 'line one\nline two', 'escaped line breaks inside strings are kept');
  assert.equal(Object.keys(parsed), ['id', 'time', 'method', 'path', 'route', 'query', 'status', 'duration_ms', 'headers',
    'response_headers', 'request_body', 'response_body', 'labels', 'matched_rules', 'tokens', 'sampled', 'truncated', 'partial',
    'dropped_reason', 'error']);
});

test('recordJson leaves a body without line breaks as it is', () => {
  assert.match(recordJson(storable('{ "a" :1.0 }')), '"request_body":{ "a" :1.0 },');
});

test('governedRecordJson gives a record\'s JSON and its key fields, as gateway.record carries them', () => {
  const record = JSON.parse(recordJson(storable('{"a":1}'))) as GovernedRecord;
  assert.equal(governedRecordJson(record), {
    json: JSON.stringify(record), id: 'r-1', time: 1_700_000_000_000, method: 'POST', path: '/api/orders', route: ['/api/**'],
    status: 200, labels: { tenant: 'acme' }, error: null,
  });
});

test.run();
