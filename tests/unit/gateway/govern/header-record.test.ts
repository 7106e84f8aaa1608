import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendValue, canonicalHeaderName, headersToRecord, headerValues } from '../../../../gateway/govern/header-record.js';

test('canonical capitalisation: first letter and letters after a hyphen upper-case, the rest lower-case', () => {
  assert.is(canonicalHeaderName('content-type'), 'Content-Type');
  assert.is(canonicalHeaderName('X-API-KEY'), 'X-Api-Key');
  assert.is(canonicalHeaderName('x-api-key'), 'X-Api-Key');
  assert.is(canonicalHeaderName('WWW-Authenticate'), 'Www-Authenticate');
  assert.is(canonicalHeaderName('etag'), 'Etag');
  assert.is(canonicalHeaderName('x-b3-traceid'), 'X-B3-Traceid');
  assert.is(canonicalHeaderName('bad name'), 'bad name', 'a name that is not a token stays as it is');
});

test('repeated headers become arrays in arrival order, whatever their spelling', () => {
  assert.equal(headersToRecord(['accept', 'a', 'X-One', '1', 'ACCEPT', 'b', 'Accept', 'c'], new Set()), {
    Accept: ['a', 'b', 'c'], 'X-One': '1',
  });
});

test('redacted headers: every value masked; names in the set are lower-case', () => {
  assert.equal(headersToRecord(['Cookie', 'a=1', 'cookie', 'b=2', 'Host', 'h'], new Set(['cookie'])), {
    Cookie: ['[REDACTED]', '[REDACTED]'], Host: 'h',
  });
});

test('a header named __proto__ is stored as an own key and does not touch the prototype', () => {
  const r = headersToRecord(['__proto__', 'x'], new Set());
  assert.ok(Object.prototype.hasOwnProperty.call(r, '__proto__'));
  assert.is(Object.getPrototypeOf(r), Object.prototype);
  const q: Record<string, string | string[]> = {};
  appendValue(q, '__proto__', 'a');
  appendValue(q, '__proto__', 'b');
  assert.equal(JSON.stringify(q), '{"__proto__":["a","b"]}');
});

test('headerValues finds every value, case-insensitively', () => {
  assert.equal(headerValues(['A', '1', 'b', '2', 'a', '3'], 'a'), ['1', '3']);
  assert.equal(headerValues(null, 'a'), []);
});

test.run();
