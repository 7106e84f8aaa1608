import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pathWithin } from '@vigil/plugin-sdk';

test('a path is within its root, itself included; a sibling sharing a prefix and a way out are not', () => {
  assert.ok(pathWithin('/home/a', '/home/a'));
  assert.ok(pathWithin('/home/a', '/home/a/x/y'));
  assert.ok(pathWithin('/', '/etc/passwd'));
  assert.not.ok(pathWithin('/home/a', '/home/ab'));
  assert.not.ok(pathWithin('/home/a', '/home'));
  assert.not.ok(pathWithin('/home/a', '/etc'));
  assert.ok(pathWithin('/home/a', '/home/a/..x'), 'a name that starts with two dots is a name');
});

test.run();
