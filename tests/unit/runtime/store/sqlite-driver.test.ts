import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore, StoreErrors } from '../../../../runtime/store/index.js';
import { isReadOnlyStatement } from '../../../../runtime/store/sqlite-driver.js';
import { tempDir } from '../../../support/tmp.js';
import { rejection } from './backend-kinds.js';

test('only statements that cannot write are read-only', () => {
  for (const sql of ['SELECT 1', '  select * from t', '-- note\nSELECT 1', '/* x */ SELECT 1', 'WITH a AS (SELECT 1) SELECT * FROM a']) {
    assert.ok(isReadOnlyStatement(sql), sql);
  }
  for (const sql of ['INSERT INTO t VALUES (1)', 'UPDATE t SET a = 1 RETURNING *', 'PRAGMA journal_mode',
    'WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a', 'WITH a AS (SELECT 1) DELETE FROM t', 'BEGIN', 'CREATE TABLE x (a)']) {
    assert.not.ok(isReadOnlyStatement(sql), sql);
  }
});

test('calling the store for a write from inside transaction() fails fast instead of waiting forever', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    await store.run('CREATE TABLE t (v INTEGER)');
    const err = await rejection(() => store.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (1)');
      await store.run('INSERT INTO t VALUES (2)');
    }));
    assert.is(err.code, StoreErrors.NESTED_TRANSACTION);
    assert.match(err.message, /use the tx argument/);
    assert.equal(await store.query('SELECT COUNT(*) AS n FROM t'), [{ n: 0 }]);
    // After the transaction, the same async context may write again.
    await store.run('INSERT INTO t VALUES (3)');
    assert.equal(await store.query('SELECT v FROM t'), [{ v: 3 }]);
  } finally {
    await store.close();
  }
});

test('content that is emptied or deleted leaves no bytes in the files (secure_delete): a queue\'s raw payloads are gone once done', async () => {
  const dir = tempDir();
  const store = await openStore(`sqlite:${join(dir.path, 'v.db')}`);
  const marker = (i: number) => `raw-card-4242424242424242-${i}-`;
  try {
    await store.run('CREATE TABLE jobs (id INTEGER PRIMARY KEY, payload TEXT)');
    // Payloads of several pages (overflow pages, as a batch of trace items has), then one emptied, one deleted.
    for (let i = 1; i <= 3; i++) await store.run('INSERT INTO jobs VALUES (?, ?)', [i, marker(i).repeat(2000)]);
    await store.run("UPDATE jobs SET payload = '' WHERE id = 1");
    await store.run('DELETE FROM jobs WHERE id = 2');
  } finally {
    await store.close();
  }
  const bytes = Buffer.concat(readdirSync(dir.path).map((f) => readFileSync(join(dir.path, f))));
  dir.cleanup();
  assert.ok(bytes.includes(marker(3)), 'the kept payload is in the file');
  assert.is(bytes.indexOf(marker(1)), -1, 'the emptied payload');
  assert.is(bytes.indexOf(marker(2)), -1, 'the deleted payload');
});

test('UPDATE … RETURNING through query() runs on the writer and returns rows', async () => {
  const dir = tempDir();
  const store = await openStore(`sqlite:${join(dir.path, 'v.db')}`);
  try {
    await store.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)');
    await store.run('INSERT INTO t VALUES (1, 1), (2, 2)');
    const rows = await store.query<{ id: number }>('UPDATE t SET v = v + 10 WHERE id = ? RETURNING id, v', [2]);
    assert.equal(rows, [{ id: 2, v: 12 }]);
  } finally {
    await store.close();
    dir.cleanup();
  }
});

test('writes reuse prepared statements, and a RETURNING statement run through run() holds no lock afterwards', async () => {
  const dir = tempDir();
  const url = `sqlite:${join(dir.path, 'v.db')}`;
  const a = await openStore(url);
  const b = await openStore(url);
  try {
    await a.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)');
    // The same statement text with other values, many times: a cached statement must rebind each time.
    for (let i = 1; i <= 40; i++) await a.run('INSERT INTO t (id, v) VALUES (?, ?)', [i, i * 2]);
    // More distinct texts than the cache holds: evicted statements are finalized, and still work when prepared again.
    for (let i = 41; i <= 80; i++) await a.run(`INSERT INTO t (id, v) VALUES (?, ${i * 2})`, [i]);
    for (let i = 81; i <= 85; i++) await a.run('INSERT INTO t (id, v) VALUES (?, ?)', [i, i * 2]);
    assert.equal(await b.query('SELECT COUNT(*) AS n, SUM(v) AS s FROM t'), [{ n: 85, s: 85 * 86 }]);
    // Stopped at its first row, a kept statement would still hold the write transaction and block the other handle.
    await a.run('UPDATE t SET v = 0 RETURNING id');
    await b.run('INSERT INTO t (id, v) VALUES (?, ?)', [1000, 1]);
    assert.equal(await a.query('SELECT SUM(v) AS s FROM t'), [{ s: 1 }]);
  } finally {
    // Closing finalizes the kept statements first; an unfinalized one would make close fail with SQLITE_BUSY.
    await a.close();
    await b.close();
    dir.cleanup();
  }
});

test('a second store handle on the same file sees committed writes at once', async () => {
  const dir = tempDir();
  const url = `sqlite:${join(dir.path, 'v.db')}`;
  const a = await openStore(url);
  const b = await openStore(url);
  try {
    await a.run('CREATE TABLE t (v INTEGER)');
    await a.insertMany('t', ['v'], [[1], [2], [3]]);
    assert.equal(await b.query('SELECT SUM(v) AS s FROM t'), [{ s: 6 }]);
  } finally {
    await a.close();
    await b.close();
    dir.cleanup();
  }
});


/**
 * Whether async_hooks propagate an AsyncLocalStorage context right now: on Node 20, while a store is enabled, every
 * new promise gets its context slot, an own symbol property named `kResourceStore`.
 */
const contextTracked = (): boolean => Object.getOwnPropertySymbols(Promise.resolve()).some((s) => s.description === 'kResourceStore');

test('the transaction context is tracked only while a transaction is open, and still catches a nested call after', async () => {
  const a = await openStore('sqlite::memory:');
  const b = await openStore('sqlite::memory:');
  try {
    await a.run('CREATE TABLE t (v INTEGER)');
    let trackedInside = false;
    let releaseB!: () => void;
    const bHeld = new Promise<void>((r) => { releaseB = r; });
    let bEntered!: () => void;
    const bOpen = new Promise<void>((r) => { bEntered = r; });
    // Two transactions overlap: the context stays on until the last of them ends.
    const bDone = b.transaction(async () => { bEntered(); await bHeld; });
    await bOpen;
    await a.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (1)');
      trackedInside = contextTracked();
    });
    if (!trackedInside) {
      console.log('  skipped: this Node version tracks AsyncLocalStorage without async_hooks, so there is nothing to turn off');
    } else {
      assert.ok(contextTracked(), 'b is still open');
    }
    releaseB();
    await bDone;
    assert.not.ok(contextTracked(), 'every transaction has ended');
    // Turned on again by the next transaction: a nested call is still refused, not left waiting.
    const err = await rejection(() => a.transaction(async () => { await a.run('INSERT INTO t VALUES (2)'); }));
    assert.is(err.code, StoreErrors.NESTED_TRANSACTION);
    assert.not.ok(contextTracked());
    assert.equal(await a.query('SELECT v FROM t'), [{ v: 1 }]);
  } finally {
    await a.close();
    await b.close();
  }
});

test.run();
