// insertWithinCap on SQLite and PostgreSQL: a burst of concurrent inserts from two store handles on one database
// (two processes, as far as the database knows) stores exactly the cap; rows outside the counted filter do not count.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { insertWithinCap, type Store } from '@vigil/plugin-sdk';
import { backendKinds } from '../runtime/store/backend-kinds.js';

const CAP = 10;
const kinds = await backendKinds('capped_insert');

for (const kind of kinds) {
  const s = suite(`insertWithinCap (${kind.name})`);
  let stores: Store[] = [];

  s.before(async () => {
    const url = await kind.fresh();
    stores = [(await kind.open(url)).forPlugin('cap'), (await kind.open(url)).forPlugin('cap')];
    await stores[0].migrate([{ version: 1, name: 'items', up: 'CREATE TABLE cap_items (id TEXT PRIMARY KEY, kind TEXT NOT NULL)' }]);
  });
  s.after(() => kind.cleanup());

  const add = (store: Store, id: string, what: string) => insertWithinCap(store, { table: 'cap_items', where: 'kind = ?', params: [what], cap: CAP },
    (tx) => tx.run('INSERT INTO cap_items (id, kind) VALUES (?, ?)', [id, what]));

  s('40 concurrent inserts over two handles store exactly the cap; the refused ones say how many they found', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => add(stores[i % 2], `a${i}`, 'a')));
    assert.is(results.filter((r) => r.inserted).length, CAP);
    for (const r of results) if (!r.inserted) assert.is(r.count, CAP);
    const [row] = await stores[0].query<{ n: number }>("SELECT COUNT(*) AS n FROM cap_items WHERE kind = 'a'");
    assert.is(Number(row.n), CAP);
  });

  s('rows outside the filter do not count; a failed insert rolls back and leaves the room', async () => {
    assert.ok((await add(stores[0], 'b0', 'b')).inserted, 'another kind has its own room');
    const failed = await add(stores[1], 'b0', 'b').then(() => undefined, (err: Error) => err);
    assert.ok(failed, 'a duplicate id rejects');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => add(stores[i % 2], `b${i + 1}`, 'b')));
    assert.is(results.filter((r) => r.inserted).length, CAP - 1);
  });

  s.run();
}
