import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keyPath, validatePolicy, validateRules } from '../../../policies/validate.js';
import { PolicyError } from '../../../policies/errors.js';

test('keyPath turns a JSON pointer into a dotted path with indexes', () => {
  assert.is(keyPath('/rules/0/match/path'), 'rules[0].match.path');
  assert.is(keyPath(''), '(top level)');
  assert.is(keyPath('/a~1b/c~0d'), 'a/b.c~d');
});

test('a valid policy passes', () => {
  validatePolicy({ service: { upstream: 'http://x' }, rules: [{ name: 'a', match: { path: '/a' } }] });
});

test('every problem is listed, the first one names the place', () => {
  try {
    validatePolicy({ rules: [{ name: 'a', match: { path: '/a' }, sample: 2, restrict: ['bodies'] }], extra: true });
    assert.unreachable('accepted');
  } catch (err) {
    assert.instance(err, PolicyError);
    const e = err as PolicyError;
    assert.is(e.code, 'VIGIL_ERR_POLICY_INVALID');
    assert.match(e.message, /extra: unknown key \(allowed here: service, rules\)/);
    assert.match(e.message, /rules\[0\]\.sample/);
    assert.match(e.message, /rules\[0\]\.restrict\[0\]: must be one of "request_body", "response_body", "headers"/);
  }
});

test('a bad label name is reported at the label', () => {
  assert.throws(
    () => validatePolicy({ rules: [{ name: 'a', match: { path: '/a' }, labels: { 'x-y': 'header:X' } }] }),
    (err: Error) => /rules\[0\]\.labels\.x-y: invalid name/.test(err.message),
  );
});

test('validateRules checks a rules list alone, with paths starting at rules', () => {
  validateRules([{ name: 'a', match: { path: '/a' } }]);
  assert.throws(() => validateRules([{ name: 'a', match: { path: '/a' }, sample: -1 }]), /^rules\[0\]\.sample: /);
  assert.throws(() => validateRules({ name: 'a' }), /^rules: must be array/);
});

test.run();
