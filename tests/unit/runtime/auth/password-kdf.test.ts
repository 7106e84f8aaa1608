// Local users' passwords (runtime/auth/password-kdf.ts): scrypt with a salt per hash, compared in constant time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword, newPassword, PASSWORD_MAX_CHARS, verifyPassword } from '../../../../runtime/auth/password-kdf.js';

test('a hash verifies its password and nothing else, and two hashes of one password differ (salt)', async () => {
  const a = await hashPassword('correct horse battery staple');
  const b = await hashPassword('correct horse battery staple');
  assert.match(a, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.is.not(a, b);
  assert.ok(await verifyPassword('correct horse battery staple', a));
  assert.ok(await verifyPassword('correct horse battery staple', b));
  assert.not.ok(await verifyPassword('correct horse battery stapl', a));
  assert.not.ok(await verifyPassword('', a));
});

test('unicode is compared in one normal form (NFC); other formats and absurd costs are refused unread', async () => {
  const h = await hashPassword('caf\u00e9-passphrase');
  assert.ok(await verifyPassword('cafe\u0301-passphrase', h));
  assert.not.ok(await verifyPassword('x', 'plaintext'));
  assert.not.ok(await verifyPassword('x', 'scrypt$1073741824$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g'));
  assert.not.ok(await verifyPassword('x'.repeat(PASSWORD_MAX_CHARS + 1), h));
  await hashPassword('x'.repeat(PASSWORD_MAX_CHARS + 1)).then(() => assert.unreachable('hashed'), (e: Error) => assert.instance(e, RangeError));
});

test('a new password has 128 random bits', () => {
  const p = newPassword();
  assert.match(p, /^[A-Za-z0-9_-]{22}$/);
  assert.is.not(p, newPassword());
});

test.run();
