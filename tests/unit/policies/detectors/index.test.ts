import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detect, maskSample, redactText } from '../../../../policies/detectors/index.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const JWT = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '42' })}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`;

const SECRETS = {
  card_number: '4111 1111 1111 1111',
  jwt: JWT,
  email: 'ada@example.com',
  aws_access_key_id: 'AKIAIOSFODNN7EXAMPLE',
  iban: 'DE89370400440532013000',
  us_ssn: '123-45-6789',
  api_key: 'sk_live_a1B2c3D4e5F6g7H8i9J0',
};

test('detect finds each kind, sorted by position, with exact spans', () => {
  const entries = Object.entries(SECRETS);
  const text = entries.map(([, v]) => v).join(' | ');
  const found = detect(text);
  assert.equal(found.map((d) => d.kind), entries.map(([k]) => k));
  for (const d of found) assert.is(text.slice(d.start, d.end), SECRETS[d.kind as keyof typeof SECRETS]);
});

test('overlapping detections keep one span', () => {
  const found = detect(`Authorization: Bearer ${JWT}`);
  assert.is(found.length, 1);
  assert.is(found[0].start, 'Authorization: Bearer '.length);
});

test('nothing to find in plain text, timestamps or empty input', () => {
  assert.equal(detect('hello world, order 42 at 1700000000004'), []);
  assert.equal(detect(''), []);
});

test('maskSample never returns a secret in clear, and keeps the kind recognisable', () => {
  for (const [kind, secret] of Object.entries(SECRETS)) {
    const masked = maskSample(`value: ${secret}`);
    assert.not.ok(masked.includes(secret), `${kind}: ${masked}`);
    assert.ok(masked.startsWith('value: '), masked);
  }
  assert.is(maskSample('4111 1111 1111 1111'), '**** **** **** 1111');
  assert.is(maskSample('ada@example.com'), 'a***@example.com');
  assert.is(maskSample('123-45-6789'), '***-**-****');
  assert.is(maskSample('AKIAIOSFODNN7EXAMPLE'), 'AKIA********');
});

test('maskSample masks a value it cannot classify entirely, and cuts long output', () => {
  assert.is(maskSample('hunter2'), '*******');
  assert.is(maskSample('a-very-long-password-value'), '********');
  const long = maskSample(`${'x'.repeat(300)} ada@example.com`);
  assert.ok(long.length <= 121);
  assert.not.ok(long.includes('ada@example.com'));
});

test('redactText replaces detected spans with the marker, optionally only some kinds', () => {
  const text = 'card 4111111111111111, mail ada@example.com';
  assert.is(redactText(text), 'card [REDACTED], mail [REDACTED]');
  assert.is(redactText(text, ['email']), 'card 4111111111111111, mail [REDACTED]');
  assert.is(redactText('nothing here'), 'nothing here');
});

test.run();
