import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { compileJsonPath } from '../../../../policies/compile-json-path.js';
import { decodeBody } from '../../../../gateway/govern/decode-body.js';

const opts = (jsonRequired: boolean) => ({ jsonRequired, maxDecodedBytes: 1 << 20 });
const ct = (type: string) => ['Content-Type', type];

test('empty and absent bodies are empty', () => {
  assert.equal(decodeBody(null, null, false, opts(true)), { kind: 'empty' });
  assert.equal(decodeBody(new Uint8Array(0), ct('application/json'), false, opts(true)), { kind: 'empty' });
});

test('JSON content types are validated as JSON: application/json, +json suffixes, text/json, with parameters', () => {
  for (const type of ['application/json', 'application/problem+json', 'application/vnd.api+json; charset=utf-8', 'text/json', 'Application/JSON']) {
    assert.equal(decodeBody(Buffer.from('{"a":1}'), ct(type), false, opts(false)), { kind: 'json', text: '{"a":1}', number: null }, type);
  }
});

test('a UTF-8 byte order mark does not break parsing', () => {
  const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]);
  assert.equal(decodeBody(body, ct('application/json'), false, opts(true)), { kind: 'json', text: '{"a":1}', number: null });
});

test('binary types are never stored, whatever the policy', () => {
  for (const type of ['application/octet-stream', 'image/jpeg', 'application/pdf', 'application/grpc', 'video/mp4']) {
    const r = decodeBody(Buffer.from('x'), ct(type), false, opts(false));
    assert.is(r.kind, 'dropped', type);
  }
});

test('text with NUL bytes and no declared type is treated as binary', () => {
  assert.is(decodeBody(Buffer.from('a\u0000b'), [], false, opts(false)).kind, 'dropped');
});

test('a truncated compressed body cannot be decoded in part', () => {
  const gz = gzipSync(Buffer.from('{"a":"' + 'x'.repeat(1000) + '"}'));
  const r = decodeBody(gz.subarray(0, 20), ['Content-Encoding', 'gzip', ...ct('application/json')], true, opts(false));
  assert.is(r.kind, 'dropped');
  assert.match((r as { reason: string }).reason, /truncated at capture limit, and a gzip-encoded body cannot be decoded in part/);
});

test('an unknown charset is not guessed at', () => {
  const r = decodeBody(Buffer.from('abc'), ct('text/plain; charset=x-made-up'), false, opts(false));
  assert.equal(r, { kind: 'dropped', reason: 'invalid x-made-up text' });
});

test('a truncated JSON body is never parsed, even when the prefix happens to be valid JSON', () => {
  assert.equal(decodeBody(Buffer.from('12'), ct('application/json'), true, opts(false)), { kind: 'text', value: '12' });
});

test('the JSON plan is applied while the body is validated: redactions in the text, the meter read', () => {
  const json = { redact: [compileJsonPath('$.card')], read: compileJsonPath('$.usage.tokens') };
  const r = decodeBody(Buffer.from('{"card": "4111", "usage": {"tokens": 12}}'), ct('application/json'), false, { ...opts(true), json });
  assert.equal(r, { kind: 'json', text: '{"card": "[REDACTED]", "usage": {"tokens": 12}}', number: 12 });
});

test('JSON nested too deep to walk is dropped where redaction applies, and kept as text where none does', () => {
  const deep = Buffer.from('['.repeat(300) + ']'.repeat(300));
  assert.equal(decodeBody(deep, ct('application/json'), false, opts(true)), {
    kind: 'dropped', reason: 'JSON nested deeper than 256 levels where json_fields redaction applies',
  });
  assert.equal(decodeBody(deep, ct('application/json'), false, opts(false)), { kind: 'text', value: deep.toString() });
});

test.run();
