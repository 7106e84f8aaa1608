import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { foldPath, MAX_FOLD_LENGTH, pathReadings, receivedPath } from '../../../policies/fold-path.js';
import { adminUsers, authorityTricks, eachSpelling, paymentsCharge, terminatorTricks } from '../../support/path-spellings.js';

for (const table of [adminUsers, paymentsCharge]) {
  test(`every family of spellings of ${table.path} folds to it`, () => {
    for (const [family, target] of eachSpelling(table)) assert.is(foldPath(target), table.path, `${family}: ${target}`);
  });
}

test('spellings as text (a YAML test case, a glob) fold like their wire form', () => {
  for (const text of ['/ａｄｍｉｎ/users', '/admin／users', '/ＡＤＭＩＮ/ｕｓｅｒｓ', '/x/．．/admin/users', '/admin︔x/users', '/admin\u0009/users']) {
    assert.is(foldPath(text), '/admin/users', text);
  }
});

test('a leading //host is a host to WHATWG URL: that reading is one of the path\'s readings', () => {
  for (const [, target] of eachSpelling(authorityTricks)) {
    assert.ok(pathReadings(target)!.includes('/admin/users'), `${target}: ${pathReadings(target)}`);
  }
});

test('a decoded ?, #, NUL, blank or line break ends the path for a downstream that parses it again: that prefix is a reading', () => {
  for (const [family, target] of eachSpelling(terminatorTricks)) {
    assert.ok(pathReadings(target)!.includes('/api/payments/charge'), `${family}: ${target}: ${pathReadings(target)}`);
  }
  // A terminator the first decoding reveals, then a second hidden under another layer: both prefixes are readings.
  const nested = pathReadings('/a/b%2500/c%3f/d')!;
  assert.ok(nested.includes('/a/b') && nested.includes('/a/b/c'), nested.join(' '));
  assert.equal(pathReadings('/api/x%3Fy'), ['/api/x?y', '/api/x']);
  // No terminator, no extra reading: an encoded letter is no reason to cut.
  assert.equal(pathReadings('/%61pi/x'), ['/api/x']);
});

test('a literal router reading keeps encoded separators inside their segment and dot segments unresolved', () => {
  assert.equal(pathReadings('/api/a%2Fb/profile'), ['/api/a/b/profile', '/api/a%2fb/profile']);
  assert.equal(pathReadings('/admin/%2e%2e'), ['/', '/admin/..']);
  assert.equal(pathReadings('/x#/../admin/users'), ['/admin/users', '/x']);
});

test('other paths stay distinct', () => {
  for (const p of ['/administrator', '/admin-users', '/adminusers', '/api/payment/charge', '/admin/users2', '/admin_/users']) {
    assert.is(foldPath(p), p, p);
  }
  assert.is(foldPath('/ADMIN%2Dx'), '/admin-x');
});

test('an already folded path is returned as it is, as its only reading', () => {
  for (const p of ['/api/x', '/.well-known/x', '/a/.hidden', '/v1/chat/completions', '/']) {
    assert.is(foldPath(p), p);
    assert.equal(pathReadings(p), [p]);
  }
});

test('a last segment with an extension is also read without it, as Spring, Rails and JAX-RS route it', () => {
  assert.equal(pathReadings('/api/payments/charge.json'), ['/api/payments/charge.json', '/api/payments/charge']);
  assert.equal(pathReadings('/a-b_c~d/e.tar.gz'), ['/a-b_c~d/e.tar.gz', '/a-b_c~d/e', '/a-b_c~d/e.tar']);
  assert.equal(pathReadings('/API/Payments/Charge.JSON'), ['/api/payments/charge.json', '/api/payments/charge']);
  assert.equal(pathReadings('/api/payments;x/charge.json;v=1'), ['/api/payments/charge.json', '/api/payments/charge']);
  assert.equal(pathReadings('/admin.json/x'), ['/admin.json/x'], 'only the last segment: no framework routes this to /admin/x');
  assert.equal(pathReadings('/a/.hidden'), ['/a/.hidden'], 'a leading dot names a file');
  assert.equal(pathReadings('/admin/%2e%2e'), ['/', '/admin/..'], 'a dot segment has no extension');
});

test('folding is idempotent', () => {
  const inputs = [...eachSpelling(adminUsers), ...eachSpelling(paymentsCharge)].map(([, t]) => t)
    .concat(['/caf%C3%A9', '/a/%FF/b', '/%uD800', '/a%01b', '/%zz/%4', '/a b', '/x/...', '/A%25zz']);
  for (const t of inputs) {
    const once = foldPath(t)!;
    assert.is(foldPath(once), once, t);
  }
});

test('the query is cut before decoding: an encoded ? stays in the path', () => {
  assert.is(foldPath('/api/a%3Fb?c'), '/api/a?b');
  assert.is(foldPath('/api/x?y=1&z=/..'), '/api/x');
});

test('invalid escapes and bytes that are not UTF-8 stay escapes, in lower case; other non-ASCII is written in UTF-8 escapes', () => {
  assert.is(foldPath('/%zz/%4'), '/%zz/%4');
  assert.is(foldPath('/a/%FF/b'), '/a/%ff/b');
  assert.is(foldPath('/a/%FF%2Fb'), '/a/%ff/b');
  assert.is(foldPath('/%ED%A0%80'), '/%ed%a0%80', 'an encoded surrogate is not a character');
  assert.is(foldPath('/%uD800x'), '/%ud800x');
  assert.is(foldPath('/caf%C3%A9'), '/caf%c3%a9');
  assert.is(foldPath('/CAF%C3%89'), '/caf%c3%a9');
  assert.is(foldPath('/café'), '/caf%c3%a9');
  assert.is(foldPath('/a%01b'), '/a%01b');
});

test('.. never climbs above the root; the root, empty and odd targets still start with /', () => {
  assert.is(foldPath('/../../etc/passwd'), '/etc/passwd');
  assert.is(foldPath('/a/../..'), '/');
  assert.is(foldPath('http://example.com:8080/a/b?c'), '/a/b');
  assert.is(foldPath('https://example.com'), '/');
  assert.is(foldPath(''), '/');
  assert.is(foldPath('*'), '/*');
  assert.is(foldPath('?q=1'), '/');
  assert.is(foldPath('/x/...'), '/x/...');
});

test('escapes that do not settle within the bound leave the path ambiguous (null)', () => {
  const levels = (n: number) => `/x/%${'25'.repeat(n - 1)}61dmin`;
  assert.is(foldPath(levels(8)), '/x/admin');
  assert.equal(pathReadings(levels(8)), ['/x/admin']);
  assert.is(foldPath(levels(9)), null);
  assert.is(pathReadings(levels(9)), null);
  assert.is(pathReadings(`/x/%${'25'.repeat(8)}41dmin`), null, 'the same depth ending in a capital');
});

test('a path too long to fold is ambiguous, unless it needs no more than lower case', () => {
  const long = 'a'.repeat(MAX_FOLD_LENGTH);
  assert.is(foldPath(`/files/${long}`), `/files/${long}`);
  assert.equal(pathReadings(`/Files/${long}`), [`/files/${long}`]);
  assert.is(foldPath(`/files;v=1/${long}`), null);
  assert.is(pathReadings(`/files/${long}/`), null);
  assert.is(foldPath(`/files;v=1/${long.slice(20)}`), `/files/${long.slice(20)}`);
});

test('the received path is the target without its query, exactly as sent', () => {
  assert.is(receivedPath('/ADMIN\\users;x?q=1'), '/ADMIN\\users;x');
  const plain = '/admin/users';
  assert.is(receivedPath(plain), plain);
  assert.is(receivedPath('http://h/A?'), 'http://h/A');
});

test.run();
