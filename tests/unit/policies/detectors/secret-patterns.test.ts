import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { seededRandom } from '@vigil/plugin-sdk';
import { findPatternSecrets, PATTERN_DETECTORS } from '../../../../policies/detectors/secret-patterns.js';

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

test('each pattern\'s hint is a necessary condition: wherever the pattern matches, its hint holds', () => {
  // Fragments of every secret, their near misses, and filler, in random order and case: the hints skip scans only
  // where the pattern cannot match, so redaction finds exactly what it found without them.
  const fragments = [
    '-----BEGIN RSA PRIVATE KEY-----\nMIIE', '-----BEGIN PRIVATE KEY-----', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', 'AKIAABCDEFGHIJKLMNOP',
    'ASIA1234567890ABCDEF', 'A3TXABCDEFGHIJKLMNOP', 'sk_live_a1B2c3D4e5F6g7H8i9J0', 'rk_test_a1B2c3D4e5F6g7H8i9J0', 'sk-proj-abcdefghijklmnopqrstuvwx',
    'sk-ant-api03-abcdefghijklmnopqrstu', 'ghp_' + 'A'.repeat(36), 'github_pat_' + 'b'.repeat(30), 'glpat-' + 'c'.repeat(20), 'xoxb-1234567890-abc',
    'AIza' + 'd'.repeat(35), 'api_key=Zx8Kq2Lm9Np4Rt6Vw1Yb', '"ApiKey": "Zx8Kq2Lm9Np4Rt6Vw1Yb"', 'ACCESS-TOKEN: abcdefghijklmnop1234', 'client_secret=abcdefghijklmnopqrs',
    'Bearer abc123def456ghi', 'BEARER\tabcdefgh12345', 'ada@example.com', 'x.y+z@sub.example.co.uk', '123-45-6789', '078-05-1120',
    ' ', '\n', ':', '=', '"', '-', '_', 'key', 'token', 'secret', 'the', 'bear', '@', '12', 'xox', 'gh', 'sk', 'AI', 'eyJ',
  ];
  const random = seededRandom(30);
  for (let round = 0; round < 5000; round++) {
    let text = '';
    const parts = 1 + Math.floor(random() * 6);
    for (let i = 0; i < parts; i++) {
      const f = fragments[Math.floor(random() * fragments.length)];
      text += random() < 0.2 ? f.toUpperCase() : random() < 0.2 ? f.toLowerCase() : f;
    }
    for (const d of PATTERN_DETECTORS) {
      const matched = [...text.matchAll(d.pattern)].length > 0;
      if (matched) assert.ok(d.hint(text), `${d.kind} matches ${JSON.stringify(text)} but its hint says no`);
    }
  }
});

test('scanning a long input without matches stays fast enough to finish (bounded patterns)', () => {
  const text = 'a'.repeat(200_000) + ' ' + '1'.repeat(50_000);
  assert.equal(findPatternSecrets(text), []);
});

test.run();
