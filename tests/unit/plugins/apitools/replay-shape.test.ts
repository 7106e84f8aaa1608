import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyShape, describeShapeChange, diffShapes, jsonShape } from '../../../../plugins/apitools/replay/json-shape.js';

const diff = (before: unknown, after: unknown) =>
  diffShapes(jsonShape(before, '[REDACTED]'), jsonShape(after)).map(describeShapeChange);

test('the shape holds paths and kinds, never values; array elements merge under [*]', () => {
  const shape = jsonShape({ id: 1, tags: ['a', 2], user: { 'first name': 'x', ok: true, n: null } });
  assert.equal([...shape.keys()].sort(), ['$', '$.id', '$.tags', '$.tags[*]', '$.user', '$.user.n', '$.user.ok', '$.user["first name"]']);
  assert.equal([...shape.get('$.tags[*]')!].sort(), ['number', 'string']);
});

test('same shape with other values is no change: numbers, empty arrays, nulls, masked fields', () => {
  assert.equal(diff({ id: 1, price: 10, items: [] }, { id: 2, price: 10.5, items: [{ sku: 'a' }] }), []);
  assert.equal(diff({ deleted_at: null }, { deleted_at: '2024-01-01' }), []);
  assert.equal(diff({ card: '[REDACTED]' }, { card: { number: 'x', exp: 'y' } }), []);
  assert.equal(diff([{ a: 1 }], [{ a: 2 }, { a: 3 }]), []);
});

test('added and removed keys, type changes, reported once at the first level that differs', () => {
  assert.equal(diff({ id: 1, email: 'e', user: { name: 'n' } }, { id: '1', user: { name: 'n', age: 3 } }), [
    'removed $.email (string)', '$.id: number → string', 'added $.user.age (number)',
  ]);
  // An object that became a string: the change is the parent's, not one per child key.
  assert.equal(diff({ address: { city: 'x', zip: 'y' } }, { address: 'x, y' }), ['$.address: object → string']);
  assert.equal(diff([{ id: 1 }], [{ id: 1, extra: true }]), ['added $[*].extra (boolean)']);
  assert.equal(diff({ 'a.b': { c: 1 } }, { 'a.b': { c: 'x' } }), ['$["a.b"].c: number → string']);
});

test('a body that is not JSON, or is empty, is a shape of its own', () => {
  assert.equal(diffShapes(jsonShape({ a: 1 }), bodyShape(Buffer.from('<html>'))).map(describeShapeChange), ['$: object → text']);
  assert.equal(diffShapes(jsonShape({ a: 1 }), bodyShape(Buffer.alloc(0))).map(describeShapeChange), ['$: object → empty']);
  assert.equal(diffShapes(jsonShape({ a: 1 }), bodyShape(Buffer.from('{"a":5}'))), []);
});

test('a deep document is walked to a bound, not to a stack overflow', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 10_000; i++) deep = { d: deep };
  assert.ok(jsonShape(deep).size <= 66);
});

test.run();
