import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_REDACT } from '../../../../plugins/assistant/config-schema.js';
import { redactOutgoing } from '../../../../plugins/assistant/redact-outgoing.js';

const kinds = new Set(DEFAULT_REDACT);

test('keys, tokens and private keys are masked, and counted; the rest of the text stays', () => {
  const text = 'aws AKIAIOSFODNN7EXAMPLE, header Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789 and jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl ok';
  const r = redactOutgoing(text, kinds);
  assert.is(r.masked, 3);
  assert.not.match(r.text, /AKIAIOSFODNN7EXAMPLE|abcdefghijklmnop|eyJzdWIi/);
  assert.match(r.text, /^aws \[REDACTED\], header/);
  assert.match(r.text, / ok$/);
});

test('email addresses stay by default (logs need them), and are masked when the list names them', () => {
  assert.equal(redactOutgoing('mail root@example.com', kinds), { text: 'mail root@example.com', masked: 0 });
  assert.equal(redactOutgoing('mail root@example.com', new Set(['email'] as const)), { text: 'mail [REDACTED]', masked: 1 });
});

test('a private key block is masked whole', () => {
  const pem = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----';
  const r = redactOutgoing(`key:\n${pem}\nend`, kinds);
  assert.is(r.masked, 1);
  assert.not.match(r.text, /b3BlbnNzaC1rZXktdjEAAAAA/);
});

test.run();
