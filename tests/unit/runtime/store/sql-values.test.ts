import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { StoreErrors } from '../../../../runtime/store/errors.js';
import { bindParams, bindValue } from '../../../../runtime/store/sql-values.js';

const where = () => 'the value';

test('plain values pass unchanged', () => {
  for (const v of ['x', 1.5, 0, true, false, null]) assert.is(bindValue(v, where), v);
  const buf = Buffer.from([1]);
  assert.is(bindValue(buf, where), buf);
});

test('bigints become exact numbers, or decimal text past 2^53', () => {
  assert.is(bindValue(42n, where), 42);
  assert.is(bindValue(-(2n ** 53n) + 1n, where), -(2 ** 53) + 1);
  assert.is(bindValue(2n ** 53n, where), '9007199254740992');
});

test('Uint8Array views become Buffers over the same bytes', () => {
  const backing = new Uint8Array([9, 1, 2, 3, 9]);
  const out = bindValue(backing.subarray(1, 4), where) as Buffer;
  assert.ok(Buffer.isBuffer(out));
  assert.equal([...out], [1, 2, 3]);
});

test('undefined, objects, functions and symbols are refused with the place named', () => {
  for (const bad of [undefined, {}, [], new Date(), () => 1, Symbol('s')]) {
    try {
      bindValue(bad, () => 'value 3 of "X"');
      assert.unreachable();
    } catch (err) {
      assert.is((err as { code: string }).code, StoreErrors.PARAMS);
      assert.match((err as Error).message, /value 3 of "X"/);
    }
  }
});

test('bindParams checks the count against the placeholders', () => {
  assert.equal(bindParams('SELECT ?', 1, [1n]), [1]);
  assert.equal(bindParams('SELECT 1', 0, undefined), []);
  assert.throws(() => bindParams('SELECT ?', 1, []), /1 \? placeholder\(s\) but 0 value/);
});

test.run();
