import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findPatternSecrets } from '../../../../policies/detectors/secret-patterns.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const JWT = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1234567890', name: 'Ada' })}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`;

const kinds = (text: string) => findPatternSecrets(text).map((d) => [d.kind, text.slice(d.start, d.end)]);

test('JWTs are found; a look-alike whose header is not JSON is not', () => {
  assert.equal(kinds(`token=${JWT}&x=1`), [['jwt', JWT]]);
  assert.equal(kinds('eyJhbGciOi.eyJzdWIiOi.abc'), []);
});

test('emails, AWS access key ids and US SSNs are found', () => {
  assert.equal(kinds('mail ada.lovelace+x@example.co.uk today'), [['email', 'ada.lovelace+x@example.co.uk']]);
  assert.equal(kinds('key AKIAIOSFODNN7EXAMPLE'), [['aws_access_key_id', 'AKIAIOSFODNN7EXAMPLE']]);
  assert.equal(kinds('ssn 123-45-6789'), [['us_ssn', '123-45-6789']]);
});

test('SSNs that are never issued do not match', () => {
  for (const n of ['000-12-3456', '666-12-3456', '900-12-3456', '123-00-4567', '123-45-0000', '1123-45-6789']) {
    assert.equal(kinds(n), [], n);
  }
});

test('private key blocks are found whole, and a cut block up to the end', () => {
  const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----';
  assert.equal(kinds(`x ${block} y`), [['private_key', block]]);
  const cut = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B';
  assert.equal(kinds(cut), [['private_key', cut]]);
  assert.equal(kinds('-----BEGIN PUBLIC KEY-----\nMIIB'), []);
});

test('bearer tokens: the token after the scheme is the secret', () => {
  assert.equal(kinds('Authorization: Bearer abc123def456ghi'), [['bearer_token', 'abc123def456ghi']]);
  assert.equal(kinds('a bearer of news'), []);
});

test('API keys with known prefixes, and long values right after an api-key name', () => {
  const stripe = 'sk_live_' + 'a1B2c3D4e5F6g7H8i9J0';
  const github = 'ghp_' + 'A'.repeat(36);
  assert.equal(kinds(`stripe ${stripe} gh ${github}`), [['api_key', stripe], ['api_key', github]]);
  assert.equal(kinds('{"api_key": "Zx8Kq2Lm9Np4Rt6Vw1Yb"}'), [['api_key', 'Zx8Kq2Lm9Np4Rt6Vw1Yb']]);
  assert.equal(kinds('api_key=short'), []);
});

test('scanning a long input without matches stays fast enough to finish (bounded patterns)', () => {
  const text = 'a'.repeat(200_000) + ' ' + '1'.repeat(50_000);
  assert.equal(findPatternSecrets(text), []);
});

test.run();
