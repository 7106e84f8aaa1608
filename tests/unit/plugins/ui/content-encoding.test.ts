import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptedEncodings, chooseEncoding } from '../../../../plugins/ui/content-encoding.js';

const sizes = { identity: 1000, gzip: 300, br: 250 };

test('the smallest form the client accepts', () => {
  assert.is(chooseEncoding('gzip, deflate, br', sizes), 'br');
  assert.is(chooseEncoding('gzip', sizes), 'gzip');
  assert.is(chooseEncoding('br', { identity: 1000, gzip: 200, br: 250 }), 'br', 'gzip is smaller but not accepted');
  assert.is(chooseEncoding('gzip, br', { identity: 1000, gzip: 200, br: 250 }), 'gzip', 'smaller wins over a "better" coding');
  assert.is(chooseEncoding(undefined, sizes), 'identity');
  assert.is(chooseEncoding('', sizes), 'identity');
  assert.is(chooseEncoding('gzip, br', { identity: 100 }), 'identity', 'nothing compressed is stored (it would not be smaller)');
});

test('q-values: 0 refuses a coding; * covers codings not named; names ignore case; x-gzip is gzip', () => {
  assert.is(chooseEncoding('br;q=0, gzip', sizes), 'gzip');
  assert.is(chooseEncoding('BR;Q=0.5', sizes), 'br');
  assert.is(chooseEncoding('*', sizes), 'br');
  assert.is(chooseEncoding('*;q=0.1, br;q=0', sizes), 'gzip');
  assert.is(chooseEncoding('x-gzip', sizes), 'gzip');
  assert.is(chooseEncoding('deflate', sizes), 'identity');
});

test('identity is acceptable unless refused by name or by *;q=0, and then sent anyway rather than a 406', () => {
  assert.ok(acceptedEncodings('gzip').has('identity'));
  assert.not.ok(acceptedEncodings('identity;q=0, gzip').has('identity'));
  assert.not.ok(acceptedEncodings('*;q=0').has('identity'));
  assert.is(chooseEncoding('identity;q=0, gzip', sizes), 'gzip');
  assert.is(chooseEncoding('identity;q=0', sizes), 'identity');
});

test('malformed headers are read leniently, never thrown on', () => {
  assert.is(chooseEncoding(',,; q=abc, br;q=', sizes), 'br', 'a q without a number is ignored');
  assert.is(chooseEncoding('gzip;q=2', sizes), 'gzip', 'q above 1 counts as 1');
});

test.run();
