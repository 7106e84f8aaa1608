import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatKeyPath, pointerToPath } from '../../../../runtime/config/key-path.js';

test('keys joined by dots, indexes in brackets', () => {
  assert.is(formatKeyPath(['rules', 2, 'redact', 'json_feilds']), 'rules[2].redact.json_feilds');
  assert.is(formatKeyPath([0, 'a']), '[0].a');
  assert.is(formatKeyPath([]), '');
});

test('keys that are not identifiers are quoted so the path stays unambiguous', () => {
  assert.is(formatKeyPath(['labels', 'x.y']), 'labels["x.y"]');
  assert.is(formatKeyPath(['a b']), '["a b"]');
  assert.is(formatKeyPath(['headers', '']), 'headers[""]');
});

test('a JSON pointer segment is an index only under a list', () => {
  const data = { rules: [{ redact: {} }], ports: { 2: 'x' } };
  assert.equal(pointerToPath('/rules/0/redact', data), ['rules', 0, 'redact']);
  assert.equal(pointerToPath('/ports/2', data), ['ports', '2']);
  assert.equal(pointerToPath('', data), []);
});

test('pointer escapes are decoded', () => {
  assert.equal(pointerToPath('/a~1b/c~0d', {}), ['a/b', 'c~d']);
});

test.run();
