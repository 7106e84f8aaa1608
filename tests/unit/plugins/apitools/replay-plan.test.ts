import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planReplay, type HeaderOverrides, type StoredRecord } from '../../../../plugins/apitools/replay/replay-plan.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const ALL = new Set(['GET', 'POST', 'PUT']);
const none: HeaderOverrides = new Map();

function rec(over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    id: 'r1', method: 'GET', path: '/api/users/1', query: {}, status: 200, headers: { Accept: 'application/json' },
    request_body: null, response_body: { id: 1 }, sampled: true, truncated: false, partial: false, dropped_reason: null, error: null, ...over,
  };
}
const post = (over: Partial<StoredRecord> = {}) => rec({
  method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': '13' }, request_body: { text: 'hi' }, ...over,
});
const reason = (r: StoredRecord, methods = ALL, overrides = none) => {
  const plan = planReplay(r, methods, overrides);
  return 'skip' in plan ? plan.skip : 'replay';
};

test('each skip reason, by the record alone', () => {
  assert.is(reason(post(), SAFE), 'unsafe_method');
  assert.is(reason(rec({ error: 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT', status: 504 })), 'upstream_error');
  assert.is(reason(post({ truncated: true, request_body: '{"text":' })), 'truncated');
  assert.is(reason(post({ partial: true, truncated: true })), 'truncated');
  assert.is(reason(rec({ query: { token: '[REDACTED]' } })), 'redacted_value');
  assert.is(reason(rec({ query: { tag: ['a', '[REDACTED]'] } })), 'redacted_value');
  assert.is(reason(rec({ path: '/users/[REDACTED]/profile' })), 'redacted_value');
  assert.is(reason(rec({ headers: { Authorization: '[REDACTED]' } })), 'redacted_value');
  assert.is(reason(post({ request_body: { card: { number: '[REDACTED]' } } })), 'redacted_value');
  assert.is(reason(rec({ headers: null })), 'restricted_headers');
  assert.is(reason(post({ request_body: null, dropped_reason: 'request_body: binary content (application/octet-stream) is not stored' })), 'dropped_body');
  assert.is(reason(post({ request_body: null, sampled: false })), 'dropped_body');
  assert.is(reason(post({ request_body: null })), 'restricted_body');
  assert.is(reason(post({ request_body: null, headers: { 'Transfer-Encoding': 'chunked' } })), 'restricted_body');
});

test('the first reason that applies is the one counted', () => {
  assert.is(reason(post({ request_body: { a: '[REDACTED]' } }), SAFE), 'unsafe_method');
  assert.is(reason(post({ truncated: true, query: { token: '[REDACTED]' } })), 'truncated');
});

test('a cut response does not stop a bodiless request; a cut body of a request without headers does', () => {
  assert.is(reason(rec({ truncated: true })), 'replay');
  assert.is(reason(rec({ truncated: true, headers: null })), 'truncated');
  assert.is(reason(rec({ response_body: null, dropped_reason: 'response_body: binary content (image/png) is not stored' })), 'replay');
  assert.is(reason(rec({ sampled: false, response_body: null })), 'replay');
});

test('a masked header replaced by --header is replayable; the override wins, and an empty one removes the header', () => {
  const overrides: HeaderOverrides = new Map([['authorization', { name: 'Authorization', value: 'Bearer staging' }], ['accept', { name: 'Accept', value: '' }]]);
  const plan = planReplay(rec({ headers: { authorization: '[REDACTED]', Accept: 'text/html', 'X-Id': '7' } }), ALL, overrides);
  assert.ok('request' in plan);
  if ('request' in plan) assert.equal(plan.request.headers, { 'X-Id': '7', Authorization: 'Bearer staging' });
});

test('the request: hop-by-hop, Host, length and encodings dropped; the query rebuilt; the body as sent', () => {
  const plan = planReplay(post({
    path: '/api/notes', query: { q: 'a b', tag: ['x', 'y'] },
    headers: {
      Host: 'prod.example', Connection: 'keep-alive, X-Hop', 'X-Hop': '1', 'Keep-Alive': 'timeout=5', 'Content-Length': '13',
      'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Accept-Encoding': 'gzip', 'X-Trace': ['a', 'b'],
    },
    request_body: { text: 'hi', n: [1, 2] },
  }), ALL, none);
  assert.ok('request' in plan);
  if (!('request' in plan)) return;
  assert.is(plan.request.method, 'POST');
  assert.is(plan.request.target, '/api/notes?q=a+b&tag=x&tag=y');
  assert.equal(plan.request.headers, { 'Content-Type': 'application/json', 'X-Trace': ['a', 'b'] });
  assert.is(plan.request.body!.toString(), '{"text":"hi","n":[1,2]}');
  const text = planReplay(post({ headers: { 'Content-Type': 'text/plain', 'Content-Length': '5' }, request_body: 'hello' }), ALL, none);
  assert.is('request' in text && text.request.body!.toString(), 'hello');
  const jsonString = planReplay(post({ request_body: 'hello' }), ALL, none);
  assert.is('request' in jsonString && jsonString.request.body!.toString(), '"hello"');
  const bodiless = planReplay(rec(), SAFE, none);
  assert.is('request' in bodiless && bodiless.request.body, null);
});

test.run();
