// The mock's store keeps its bounds exactly: items per collection across scopes, estimated bytes of all items, a
// refused write changes nothing, and deletes (with the children they take along) give back what they held.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CollectionStore, itemCost } from '../../../../../plugins/apitools/mock/collection-store.js';
import type { Collection } from '../../../../../plugins/apitools/mock/collections.js';
import { retainedBytes } from '../../../../../plugins/apitools/mock/retained-bytes.js';

function collection(template: string, parent?: Collection): Collection {
  const c: Collection = {
    template, itemTemplate: `${template}/{id}`, name: template.split('/').pop()!, singular: 'item', idParam: 'id', idField: 'id',
    idKind: 'integer', itemSchema: {}, scopeParams: parent ? ['user_id'] : [], parent, children: [],
  };
  parent?.children.push(c);
  return c;
}

test('retained bytes: a string by its length (two a character beyond Latin-1), containers by their entries', () => {
  assert.is(retainedBytes('x'.repeat(1000)), 1016);
  assert.is(retainedBytes('é'.repeat(1000)), 1016);
  assert.is(retainedBytes('€'.repeat(1000)), 2016);
  assert.is(retainedBytes({}), 32);
  assert.is(retainedBytes([]), 48);
  assert.is(retainedBytes([1, true, null]), 48 + 3 * 8 + 16);
  assert.is(retainedBytes({ a: 'b' }), 32 + 24 + 17 + 17);
  // Far more than the JSON text for many small values: what a client could otherwise hold past the bound.
  const many = Array.from({ length: 1000 }, () => ({}));
  assert.ok(retainedBytes(many) > 10 * JSON.stringify(many).length);
  // Deep nesting walks without recursion.
  let deep: unknown = 'end';
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.is(retainedBytes(deep), 100_000 * (48 + 8) + 19);
});

test('items per collection count across scopes; another collection has its own count', () => {
  const users = collection('/users');
  const orders = collection('/users/{user_id}/orders', users);
  const store = new CollectionStore({ maxItems: 2, maxBytes: 1 << 20 });
  assert.is(store.set(users, [], '1', { id: 1 }), undefined);
  assert.is(store.set(users, [], '2', { id: 2 }), undefined);
  assert.match(store.set(users, [], '3', { id: 3 })!.refused, '/users holds 2 items');
  assert.is(store.set(users, [], '2', { id: 2, name: 'replaced in place' }), undefined, 'a replacement is no new item');
  assert.is(store.set(orders, ['1'], '1', { id: 1 }), undefined);
  assert.is(store.set(orders, ['2'], '2', { id: 2 }), undefined);
  assert.match(store.set(orders, ['2'], '3', { id: 3 })!.refused, '--max-items 2');
  assert.equal(store.items(users, []).map((u) => u.id), [1, 2]);
  assert.is(store.usage().items, 4);
});

test('bytes of all items: a refused write changes nothing; replacing and deleting give bytes back', () => {
  const notes = collection('/notes');
  const one = { id: 1, text: 'x'.repeat(400) };
  const size = itemCost(notes, [], '1', one);
  assert.ok(size > retainedBytes(one) && size < retainedBytes(one) + 64, 'the keys it is stored under count too');
  const store = new CollectionStore({ maxItems: 100, maxBytes: 2 * size + 200 });
  assert.is(store.set(notes, [], '1', one), undefined);
  assert.is(store.set(notes, [], '2', { ...one, id: 2 }), undefined);
  assert.equal(store.usage(), { items: 2, bytes: 2 * size });
  const refused = store.set(notes, [], '3', { ...one, id: 3 });
  assert.match(refused!.refused, `--max-bytes ${2 * size + 200}`);
  assert.is(store.set(notes, [], '1', { id: 1, text: 'x'.repeat(700) })?.refused.includes('--max-bytes'), true, 'growing in place');
  assert.equal(store.get(notes, [], '1'), one, 'a refused write leaves the item as it was');
  assert.equal(store.usage(), { items: 2, bytes: 2 * size });
  assert.is(store.set(notes, [], '1', { id: 1 }), undefined);
  assert.is(store.set(notes, [], '3', { ...one, id: 3 }), undefined, 'the shrunk item made room');
  assert.ok(store.delete(notes, [], '2'));
  assert.equal(store.usage(), { items: 2, bytes: itemCost(notes, [], '1', { id: 1 }) + itemCost(notes, [], '3', { ...one, id: 3 }) });
});

test('a delete takes the children along and their share of the bounds; an emptied scope is gone', () => {
  const users = collection('/users');
  const orders = collection('/users/{user_id}/orders', users);
  const lines = collection('/users/{user_id}/orders/{order_id}/lines', orders);
  const store = new CollectionStore({ maxItems: 3, maxBytes: 1 << 20 });
  store.set(users, [], '1', { id: 1 });
  store.set(users, [], '2', { id: 2 });
  store.set(orders, ['1'], '10', { id: 10 });
  store.set(orders, ['1'], '11', { id: 11 });
  store.set(lines, ['1', '10'], '100', { id: 100 });
  store.set(orders, ['2'], '12', { id: 12 });
  assert.match(store.set(orders, ['2'], '13', { id: 13 })!.refused, '/users/{user_id}/orders holds 3');
  assert.ok(store.delete(users, [], '1'));
  assert.equal(store.usage(), { items: 2, bytes: itemCost(users, [], '2', { id: 2 }) + itemCost(orders, ['2'], '12', { id: 12 }) });
  assert.equal(Object.keys(store.dump()).sort(), ['/users', '/users/{user_id}/orders']);
  assert.equal(store.dump()['/users/{user_id}/orders'], { 2: [{ id: 12 }] });
  assert.is(store.set(orders, ['2'], '13', { id: 13 }), undefined, 'the deleted user\'s orders made room');
  assert.ok(store.delete(orders, ['2'], '12'));
  assert.ok(store.delete(orders, ['2'], '13'));
  assert.not.ok(store.delete(orders, ['2'], '13'));
  assert.equal(store.dump(), { '/users': { '': [{ id: 2 }] } }, 'no empty scope lingers');
});

test('a long parent id from the path counts against the bytes, once per item under it', () => {
  const tenants = collection('/tenants/{tenant}/users');
  const long = 't'.repeat(8000);
  assert.ok(itemCost(tenants, [long], '1', { id: 1 }) > 8000);
  const store = new CollectionStore({ maxItems: 1000, maxBytes: 20_000 });
  assert.is(store.set(tenants, [long + 'a'], '1', { id: 1 }), undefined);
  assert.is(store.set(tenants, [long + 'b'], '2', { id: 2 }), undefined);
  assert.match(store.set(tenants, [long + 'c'], '3', { id: 3 })!.refused, '--max-bytes 20000');
});

test.run();
