import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileGlob } from '../../../policies/compile-glob.js';
import { PolicyError } from '../../../policies/errors.js';

const matches = (glob: string, path: string) => compileGlob(glob).test(path);

test('a literal glob matches only that folded path', () => {
  assert.ok(matches('/api/users', '/api/users'));
  assert.not.ok(matches('/api/users', '/api/users/1'));
  assert.not.ok(matches('/api/users', '/api'));
  assert.not.ok(matches('/api/users', '/API/users'), 'test() takes a path already folded');
  assert.not.ok(matches('/api/users', '/api/usersx'));
});

test('* matches within one segment only', () => {
  assert.ok(matches('/api/*/orders', '/api/42/orders'));
  assert.not.ok(matches('/api/*/orders', '/api/42/7/orders'));
  assert.not.ok(matches('/api/*/orders', '/api/orders'));
  assert.ok(matches('/files/*.json', '/files/a.json'));
  assert.not.ok(matches('/files/*.json', '/files/a/b.json'));
  assert.not.ok(matches('/files/*.json', '/files/ajson'), 'the dot is literal, not a regex wildcard');
  assert.ok(matches('/v*/users', '/v2/users'));
  assert.ok(matches('/v*/users', '/v/users'));
});

test('** matches zero or more segments', () => {
  assert.ok(matches('/api/**', '/api'));
  assert.ok(matches('/api/**', '/api/a'));
  assert.ok(matches('/api/**', '/api/a/b/c'));
  assert.not.ok(matches('/api/**', '/apis'));
  assert.not.ok(matches('/api/**', '/other/api/x'));
  assert.ok(matches('/a/**/z', '/a/z'));
  assert.ok(matches('/a/**/z', '/a/b/c/z'));
  assert.not.ok(matches('/a/**/z', '/a/b/c/zz'));
  assert.ok(matches('/**/secret', '/secret'));
  assert.ok(matches('/**/secret', '/x/y/secret'));
});

test('/** and / match the root', () => {
  assert.ok(matches('/**', '/'));
  assert.ok(matches('/**', '/anything/at/all'));
  assert.ok(matches('/', '/'));
  assert.not.ok(matches('/', '/a'));
});

test('regex characters in a glob are literal', () => {
  assert.ok(matches('/a+b/(c)/[d]/$e^', '/a+b/(c)/[d]/$e^'));
  assert.not.ok(matches('/a+b', '/aab'));
});

test('the glob is folded like a request path', () => {
  assert.ok(matches('/api//x/', '/api/x'));
  assert.ok(matches('/%61pi/**', '/api/x'));
  assert.ok(matches('/API/Users/**', '/api/users/x'));
  assert.ok(matches('/api;v=1/x\\Y', '/api/x/y'));
  assert.ok(matches('/Files/*.BIN', '/files/a.bin'));
  assert.ok(matches('/ｃａｆé/*', '/caf%c3%a9/x'));
  assert.equal(compileGlob('/Admin./Users;x/**').regex.source, compileGlob('/admin/users/**').regex.source);
});

test('a glob encoded in more layers than the fold decodes is rejected', () => {
  try {
    compileGlob(`/%${'25'.repeat(12)}61`, 'rules[0].match.path');
    assert.unreachable('accepted');
  } catch (err) {
    assert.instance(err, PolicyError);
    assert.match((err as PolicyError).message, /^rules\[0\]\.match\.path: .*more layers/);
  }
});

test('bad globs are rejected with the rule position', () => {
  for (const glob of ['api/x', '/api/x?y', '/a#b', '/a/**b', '/a/b**']) {
    try {
      compileGlob(glob, 'rules[3].match.path');
      assert.unreachable(`accepted ${glob}`);
    } catch (err) {
      assert.instance(err, PolicyError);
      assert.is((err as PolicyError).code, 'VIGIL_ERR_POLICY_GLOB');
      assert.match((err as PolicyError).message, /^rules\[3\]\.match\.path: /);
    }
  }
});

test.run();
