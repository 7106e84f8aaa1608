import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gunzipSync } from 'node:zlib';
import { compilePolicy } from '../../../../policies/compile.js';
import { caseExchange } from '../../../../plugins/governance/test-case-exchange.js';

const policy = compilePolicy({ rules: [
  { name: 'all', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant-Id' } },
  { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body', 'headers'] },
] });

test('builds the exchange the proxy would publish: decision indexes, the path as sent, labels, raw headers', () => {
  const { exchange, decision } = caseExchange({
    name: 'c', request: { method: 'post', path: '/api//x?a=1', headers: { 'X-Tenant-Id': 'acme', Accept: ['a', 'b'] }, body: { k: 1 } },
    response: { status: 201, raw: 'ok', headers: { 'Content-Type': 'text/plain' } },
    expect: { sampled: true },
  }, policy, 'id-1');
  assert.is(exchange.id, 'id-1');
  assert.is(exchange.method, 'POST');
  assert.is(exchange.target, '/api//x?a=1');
  assert.is(exchange.path, '/api//x', 'the record keeps the path as the client sent it, without the query');
  assert.equal(exchange.ruleIndexes, [0]);
  assert.equal(decision.matchedRules, ['all']);
  assert.equal(exchange.labels, { tenant: 'acme' });
  assert.equal(exchange.requestHeaders, ['X-Tenant-Id', 'acme', 'Accept', 'a', 'Accept', 'b', 'Content-Type', 'application/json']);
  assert.is(Buffer.from(exchange.requestBody!).toString(), '{"k":1}');
  assert.is(exchange.status, 201);
  assert.is(Buffer.from(exchange.responseBody!).toString(), 'ok');
  assert.equal(exchange.responseHeaders, ['Content-Type', 'text/plain']);
});

test('a restricted route carries no body and no headers, as the proxy allocates none', () => {
  const { exchange } = caseExchange({
    name: 'c', request: { path: '/admin/x', headers: { 'X-Tenant-Id': 'acme' }, body: { password: 'p' } },
    response: { body: { ok: true } }, expect: { sampled: true },
  }, policy, 'id');
  assert.is(exchange.requestBody, null);
  assert.is(exchange.requestHeaders, null);
  assert.is(exchange.responseHeaders, null);
  assert.ok(exchange.responseBody !== null);
  assert.equal(exchange.labels, { tenant: 'acme' }, 'labels are metric dimensions, extracted before restriction');
  assert.is(exchange.status, 200, 'default status');
});

test('bodies are cut at max_body_bytes with the truncated flag; encoding compresses and sets the header', () => {
  const { exchange } = caseExchange({
    name: 'c', max_body_bytes: 4, request: { path: '/x', raw: 'abcdefgh' },
    response: { body: { a: 1 }, encoding: 'gzip' }, expect: { sampled: true },
  }, compilePolicy({ rules: [] }), 'id');
  assert.is(Buffer.from(exchange.requestBody!).toString(), 'abcd');
  assert.is(exchange.requestTruncated, true);
  assert.is(exchange.responseTruncated, true);
  const { exchange: full } = caseExchange({
    name: 'c', request: { path: '/x', base64: Buffer.from([1, 2, 3]).toString('base64') },
    response: { body: { a: 1 }, encoding: 'gzip' }, expect: { sampled: true },
  }, compilePolicy({ rules: [] }), 'id');
  assert.equal([...full.requestBody!], [1, 2, 3]);
  assert.equal(full.requestHeaders, [], 'no content-type is invented for base64 bytes');
  assert.equal(full.responseHeaders, ['Content-Type', 'application/json', 'Content-Encoding', 'gzip']);
  assert.is(gunzipSync(full.responseBody!).toString(), '{"a":1}');
});

test.run();
