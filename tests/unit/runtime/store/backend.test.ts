import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CounterChild, HistogramChild, Metrics } from '@vigil/plugin-sdk';
import { openStore, StoreErrors, StoreQueryError } from '../../../../runtime/store/index.js';
import type { StoreBackend } from '../../../../runtime/store/index.js';
import { backendKinds, rejection, type BackendKind } from './backend-kinds.js';

function define(kind: BackendKind) {
  const test = suite<{ store: StoreBackend }>(`store backend (${kind.name})`);

  test.before.each(async (ctx) => {
    ctx.store = await kind.open(await kind.fresh());
    await ctx.store.run('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, big BIGINT, flag INTEGER, data BYTEA_OR_BLOB)'.replace('BYTEA_OR_BLOB', kind.name === 'postgres' ? 'BYTEA' : 'BLOB'));
  });
  test.after(() => kind.cleanup());

  test('run reports affected rows and query returns rows with ? values', async ({ store }) => {
    assert.equal(await store.run('INSERT INTO items (id, name) VALUES (?, ?), (?, ?)', [1, 'a', 2, 'b']), { changes: 2 });
    assert.equal(await store.run('UPDATE items SET name = ? WHERE id > ?', ['z', 0]), { changes: 2 });
    const rows = await store.query<{ id: number; name: string }>('SELECT id, name FROM items WHERE name = ? ORDER BY id', ['z']);
    assert.equal(rows, [{ id: 1, name: 'z' }, { id: 2, name: 'z' }]);
  });

  test('a ? inside a string literal or a comment is not a placeholder', async ({ store }) => {
    const rows = await store.query<{ a: string; b: string; c: string }>(
      "SELECT ? AS a, '?' AS b, 'it''s ?' AS c -- trailing ?\n /* and ? here */", ['x']);
    assert.equal(rows, [{ a: 'x', b: '?', c: "it's ?" }]);
  });

  test('a placeholder/value count mismatch is an error, not a silent NULL', async ({ store }) => {
    const few = await rejection(() => store.query('SELECT ? AS a, ? AS b', [1]));
    assert.is(few.code, StoreErrors.PARAMS);
    assert.match(few.message, /2 \? placeholder\(s\) but 1 value/);
    const many = await rejection(() => store.run("INSERT INTO items (id, name) VALUES (?, 'x')", [1, 2]));
    assert.is(many.code, StoreErrors.PARAMS);
  });

  test('undefined and objects are rejected as values', async ({ store }) => {
    const undef = await rejection(() => store.run('INSERT INTO items (id, name) VALUES (?, ?)', [1, undefined as never]));
    assert.is(undef.code, StoreErrors.PARAMS);
    assert.match(undef.message, /undefined/);
    const obj = await rejection(() => store.run('INSERT INTO items (id, name) VALUES (?, ?)', [1, { a: 1 } as never]));
    assert.match(obj.message, /JSON\.stringify/);
  });

  test('BIGINT, COUNT and SUM come back as numbers; bigint values bind', async ({ store }) => {
    const big = 2 ** 40 + 5;
    await store.run('INSERT INTO items (id, name, big) VALUES (?, ?, ?), (?, ?, ?)', [1, 'a', big, 2, 'b', 10n]);
    const rows = await store.query<{ big: unknown }>('SELECT big FROM items ORDER BY id');
    assert.equal(rows.map((r) => r.big), [big, 10]);
    const [agg] = await store.query<{ n: unknown; s: unknown }>('SELECT COUNT(*) AS n, SUM(big) AS s FROM items');
    assert.is(agg.n, 2);
    assert.is(agg.s, big + 10);
  });

  test('booleans bound into INTEGER columns and bytes round-trip', async ({ store }) => {
    // Portable booleans live in INTEGER columns as 0/1 (PostgreSQL refuses true for an integer, so bind numbers).
    await store.run('INSERT INTO items (id, name, flag, data) VALUES (?, ?, ?, ?)', [1, 'a', 1, new Uint8Array([0, 255, 7])]);
    const [row] = await store.query<{ flag: unknown; data: Buffer }>('SELECT flag, data FROM items');
    assert.is(row.flag, 1);
    assert.equal([...row.data], [0, 255, 7]);
  });

  test('a rejected statement becomes StoreQueryError with the driver code and the SQL', async ({ store }) => {
    await store.run('INSERT INTO items (id, name) VALUES (1, ?)', ['a']);
    const err = await rejection(() => store.run('INSERT INTO items (id, name) VALUES (1, ?)', ['b']));
    assert.instance(err, StoreQueryError);
    assert.is(err.code, StoreErrors.QUERY);
    assert.ok((err as StoreQueryError).uniqueViolation);
    assert.match(err.message, /INSERT INTO items/);
    const syntax = await rejection(() => store.query('SELEC 1'));
    assert.not.ok((syntax as StoreQueryError).uniqueViolation);
  });

  test('insertMany writes one row', async ({ store }) => {
    assert.is(await store.insertMany('items', ['id', 'name'], [[7, 'seven']]), 1);
    assert.equal(await store.query('SELECT id, name FROM items'), [{ id: 7, name: 'seven' }]);
  });

  test('insertMany writes 10,000 rows across several statements', async ({ store }) => {
    const rows = Array.from({ length: 10_000 }, (_, i) => [i + 1, `n${i}`, i * 1000, i % 2, null]);
    assert.is(await store.insertMany('items', ['id', 'name', 'big', 'flag', 'data'], rows), 10_000);
    const [agg] = await store.query<{ n: number; s: number; f: number }>('SELECT COUNT(*) AS n, SUM(big) AS s, SUM(flag) AS f FROM items');
    assert.equal(agg, { n: 10_000, s: 1000 * (9999 * 10_000) / 2, f: 5000 });
    const [last] = await store.query('SELECT name FROM items WHERE id = ?', [10_000]);
    assert.equal(last, { name: 'n9999' });
  });

  test('insertMany appends the conflict clause and counts only written rows', async ({ store }) => {
    await store.insertMany('items', ['id', 'name'], [[1, 'old'], [2, 'old']]);
    const written = await store.insertMany('items', ['id', 'name'], [[1, 'new'], [2, 'new'], [3, 'new']], { onConflict: 'ON CONFLICT (id) DO NOTHING' });
    assert.is(written, 1);
    assert.equal((await store.query<{ name: string }>('SELECT name FROM items ORDER BY id')).map((r) => r.name), ['old', 'old', 'new']);
    await store.insertMany('items', ['id', 'name'], [[1, 'upd']], { onConflict: 'ON CONFLICT (id) DO UPDATE SET name = excluded.name' });
    assert.equal(await store.query('SELECT name FROM items WHERE id = 1'), [{ name: 'upd' }]);
  });

  test('insertMany is all or nothing: a failing row in a later statement keeps none', async ({ store }) => {
    const rows: (number | string)[][] = Array.from({ length: 2000 }, (_, i) => [i + 1, 'x']);
    rows.push([5, 'duplicate of an earlier id']);
    const err = await rejection(() => store.insertMany('items', ['id', 'name'], rows));
    assert.is(err.code, StoreErrors.QUERY);
    assert.equal(await store.query('SELECT COUNT(*) AS n FROM items'), [{ n: 0 }]);
  });

  test('insertMany rejects bad shapes and names before touching the database', async ({ store }) => {
    assert.is(await store.insertMany('items', ['id', 'name'], []), 0);
    assert.is((await rejection(() => store.insertMany('items', ['id', 'name'], [[1, 'a'], [2]]))).code, StoreErrors.ROW_SHAPE);
    assert.is((await rejection(() => store.insertMany('items; DROP TABLE items', ['id'], [[1]]))).code, StoreErrors.IDENTIFIER);
    assert.is((await rejection(() => store.insertMany('items', ['id', 'name)'], [[1, 'a']]))).code, StoreErrors.IDENTIFIER);
    assert.equal(await store.query('SELECT COUNT(*) AS n FROM items'), [{ n: 0 }]);
  });

  test('transaction commits when fn resolves and returns its value', async ({ store }) => {
    const out = await store.transaction(async (tx) => {
      await tx.run('INSERT INTO items (id, name) VALUES (?, ?)', [1, 'a']);
      const [row] = await tx.query<{ n: number }>('SELECT COUNT(*) AS n FROM items');
      return row.n;
    });
    assert.is(out, 1);
    assert.equal(await store.query('SELECT name FROM items'), [{ name: 'a' }]);
  });

  test('transaction rolls back when fn throws and rethrows the same error', async ({ store }) => {
    const boom = new Error('boom');
    const err = await rejection(() => store.transaction(async (tx) => {
      await tx.run('INSERT INTO items (id, name) VALUES (?, ?)', [1, 'a']);
      throw boom;
    }));
    assert.is(err, boom);
    assert.equal(await store.query('SELECT COUNT(*) AS n FROM items'), [{ n: 0 }]);
  });

  test('concurrent transactions are isolated, and a plain run() during one is not rolled back with it', async ({ store }) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    let entered!: () => void;
    const inside = new Promise<void>((r) => { entered = r; });
    const insert = 'INSERT INTO items (id, name) VALUES (?, ?)';
    const doomed = store.transaction(async (tx) => {
      await tx.run(insert, [1, 'a1']);
      entered();
      await gate;
      await tx.run(insert, [2, 'a2']);
      throw new Error('roll me back');
    });
    await inside;
    const other = store.transaction(async (tx) => {
      await tx.run(insert, [3, 'b1']);
      await tx.run(insert, [4, 'b2']);
    });
    const plain = store.run(insert, [5, 'c1']);
    // A read outside the transactions neither waits for them nor sees their uncommitted rows.
    const seen = await store.query<{ name: string }>('SELECT name FROM items ORDER BY id');
    assert.not.ok(seen.some((r) => r.name === 'a1'));
    release();
    assert.is((await rejection(() => doomed)).message, 'roll me back');
    await other;
    await plain;
    const names = (await store.query<{ name: string }>('SELECT name FROM items ORDER BY id')).map((r) => r.name);
    assert.equal(names, ['b1', 'b2', 'c1']);
  });

  test('insertMany inside a transaction commits and rolls back with it', async ({ store }) => {
    const rows = Array.from({ length: 3000 }, (_, i) => [i + 1, `n${i}`]);
    await store.transaction(async (tx) => {
      assert.is(await tx.insertMany('items', ['id', 'name'], rows), 3000);
      await tx.run('UPDATE items SET name = ? WHERE id = ?', ['first', 1]);
    });
    const failed = await rejection(() => store.transaction(async (tx) => {
      await tx.insertMany('items', ['id', 'name'], [[5001, 'x'], [5002, 'y']]);
      throw new Error('abort after insertMany');
    }));
    assert.match(failed.message, /abort after insertMany/);
    const [{ n }] = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM items');
    assert.is(n, 3000);
    assert.equal(await store.query('SELECT name FROM items WHERE id = ?', [1]), [{ name: 'first' }]);
  });

  test('a transaction handle used after its transaction ended is refused', async ({ store }) => {
    let leaked!: { run(sql: string, p?: never[]): Promise<unknown> };
    await store.transaction(async (tx) => { leaked = tx as never; });
    const err = await rejection(() => leaked.run("INSERT INTO items (id, name) VALUES (9, 'late')"));
    assert.is(err.code, StoreErrors.CLOSED);
    assert.equal(await store.query('SELECT COUNT(*) AS n FROM items'), [{ n: 0 }]);
  });

  test('nowSql is the database clock in epoch milliseconds', async ({ store }) => {
    const before = Date.now();
    const [row] = await store.query<{ now: number }>(`SELECT ${store.nowSql} AS now`);
    assert.type(row.now, 'number');
    // Same host: the database clock and ours agree to well within a second.
    assert.ok(Math.abs(row.now - before) < 1000, `db clock ${row.now} vs ${before}`);
  });

  test('lockedTransaction excludes another holder of the same key', async () => {
    const url = await kind.fresh();
    const a = await kind.open(url);
    const b = await kind.open(url);
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    let entered!: () => void;
    const inside = new Promise<void>((r) => { entered = r; });
    const first = a.lockedTransaction('k', async () => { order.push('a in'); entered(); await gate; order.push('a out'); });
    await inside;
    const second = b.lockedTransaction('k', async () => { order.push('b in'); });
    await new Promise((r) => setTimeout(r, 100));
    release();
    await Promise.all([first, second]);
    assert.equal(order, ['a in', 'a out', 'b in']);
  });

  test('close() waits for a write in flight, is idempotent, and refuses later use', async () => {
    const url = await kind.fresh();
    const store = await openStore(url);
    await store.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const rows = Array.from({ length: 5000 }, (_, i) => [i, 'v']);
    const writing = store.insertMany('t', ['id', 'v'], rows);
    await Promise.all([store.close(), store.close()]);
    assert.is(await writing, 5000);
    assert.is((await rejection(() => store.query('SELECT 1 AS one'))).code, StoreErrors.CLOSED);
    const again = await kind.open(url);
    assert.equal(await again.query('SELECT COUNT(*) AS n FROM t'), [{ n: 5000 }]);
  });

  test('metrics count operations by kind when given', async () => {
    const counts = new Map<string, number>();
    const observed: string[] = [];
    const child = (name: string, labels: string[]): CounterChild & HistogramChild => ({
      inc: (n = 1) => { const k = `${name}{${labels}}`; counts.set(k, (counts.get(k) ?? 0) + n); },
      observe: () => { observed.push(`${name}{${labels}}`); },
    });
    const metric = (name: string) => ({ ...child(name, []), labels: (...v: string[]) => child(name, v) });
    const metrics = { counter: metric, histogram: metric, gauge: metric } as unknown as Metrics;
    const store = await openStore(await kind.fresh(), { metrics });
    try {
      await store.run('CREATE TABLE t (id INTEGER)');
      await store.query('SELECT COUNT(*) AS n FROM t');
      await store.insertMany('t', ['id'], [[1]]);
      await rejection(() => store.query('SELECT nope FROM t'));
    } finally {
      await store.close();
    }
    assert.is(counts.get('vigil_store_queries_total{run}'), 1);
    assert.is(counts.get('vigil_store_queries_total{query}'), 2);
    assert.is(counts.get('vigil_store_queries_total{insert_many}'), 1);
    assert.is(counts.get('vigil_store_errors_total{query}'), 1);
    assert.is(observed.filter((o) => o === 'vigil_store_query_duration_seconds{query}').length, 2);
  });

  return test;
}

for (const kind of await backendKinds('store_backend')) define(kind).run();
