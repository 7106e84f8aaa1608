import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sqlite3 from 'sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore, parseStoreUrl, StoreErrors } from '../../../../runtime/store/index.js';
import { freePort } from '../../../support/net.js';
import { tempDir } from '../../../support/tmp.js';
import { rejection } from './backend-kinds.js';

test('sqlite URLs: absolute, relative (resolved against cwd), triple slash and memory', () => {
  assert.equal(parseStoreUrl('sqlite:/var/lib/vigil/vigil.db'), { kind: 'sqlite', filename: '/var/lib/vigil/vigil.db' });
  assert.equal(parseStoreUrl('sqlite:./.vigil/vigil.db'), { kind: 'sqlite', filename: resolve('.vigil/vigil.db') });
  assert.equal(parseStoreUrl('sqlite:///srv/v.db'), { kind: 'sqlite', filename: '/srv/v.db' });
  assert.equal(parseStoreUrl('sqlite::memory:'), { kind: 'sqlite', filename: ':memory:' });
});

test('postgres and postgresql URLs pass through whole', () => {
  const url = 'postgres://user@db:5432/vigil?options=-c%20search_path%3Dx';
  assert.equal(parseStoreUrl(url), { kind: 'postgres', url });
  assert.equal(parseStoreUrl('postgresql://db/vigil'), { kind: 'postgres', url: 'postgresql://db/vigil' });
});

test('an unknown scheme is a clear error that lists the accepted forms and hides the password', () => {
  let err = (() => { try { parseStoreUrl('mysql://root:hunter2@db/vigil'); } catch (e) { return e as Error & { code: string }; } })();
  assert.is(err?.code, StoreErrors.URL);
  assert.match(err!.message, /unknown storage URL scheme "mysql:"/);
  assert.match(err!.message, /sqlite:\/path\/to\/vigil\.db, sqlite::memory: or postgres:\/\//);
  assert.not.match(err!.message, /hunter2/);
  for (const bad of ['', '   ', 'vigil.db', 'sqlite:']) {
    err = (() => { try { parseStoreUrl(bad); } catch (e) { return e as Error & { code: string }; } })();
    assert.is(err?.code, StoreErrors.URL, bad);
  }
});

test('openStore creates the missing parent directory and sets WAL, NORMAL sync, foreign keys, busy timeout, 16 KiB pages, in-memory temp store for writes', async () => {
  const dir = tempDir();
  const file = join(dir.path, 'a', 'b', 'vigil.db');
  const store = await openStore(`sqlite:${file}`);
  try {
    assert.ok(existsSync(file));
    assert.equal(await store.query('PRAGMA journal_mode'), [{ journal_mode: 'wal' }]);
    assert.equal(await store.query('PRAGMA synchronous'), [{ synchronous: 1 }]);
    assert.equal(await store.query('PRAGMA foreign_keys'), [{ foreign_keys: 1 }]);
    assert.equal(await store.query('PRAGMA busy_timeout'), [{ timeout: 5000 }]);
    assert.equal(await store.query('PRAGMA page_size'), [{ page_size: 16384 }]);
    // Checkpoints every 4 MiB of WAL, whatever the page size.
    assert.equal(await store.query('PRAGMA wal_autocheckpoint'), [{ wal_autocheckpoint: 256 }]);
    // The write connection (a PRAGMA is not read-only, so it runs there): statement journals stay in memory.
    assert.equal(await store.query('PRAGMA temp_store'), [{ temp_store: 2 }]);
  } finally {
    await store.close();
    dir.cleanup();
  }
});

test('an existing database keeps its page size and its rows', async () => {
  const dir = tempDir();
  const file = join(dir.path, 'old.db');
  await new Promise<void>((resolve, reject) => {
    const db = new sqlite3.Database(file);
    db.exec('PRAGMA page_size = 4096; CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (7);', (err) => {
      if (err) reject(err);
      else db.close((e) => (e ? reject(e) : resolve()));
    });
  });
  const store = await openStore(`sqlite:${file}`);
  try {
    assert.equal(await store.query('PRAGMA page_size'), [{ page_size: 4096 }]);
    assert.equal(await store.query('PRAGMA wal_autocheckpoint'), [{ wal_autocheckpoint: 1024 }]);
    assert.equal(await store.query('PRAGMA journal_mode'), [{ journal_mode: 'wal' }]);
    assert.equal(await store.query('SELECT v FROM t'), [{ v: 7 }]);
  } finally {
    await store.close();
    dir.cleanup();
  }
});

test('foreign keys are enforced on SQLite', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    await store.run('CREATE TABLE parent (id INTEGER PRIMARY KEY)');
    await store.run('CREATE TABLE child (id INTEGER, parent_id INTEGER REFERENCES parent (id))');
    assert.is((await rejection(() => store.run('INSERT INTO child VALUES (1, 99)'))).code, StoreErrors.QUERY);
  } finally {
    await store.close();
  }
});

test('an in-memory store answers reads during a transaction after it ends', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    assert.is(store.dialect, 'sqlite');
    await store.run('CREATE TABLE t (v INTEGER)');
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const tx = store.transaction(async (t) => { await t.run('INSERT INTO t VALUES (1)'); await gate; });
    const read = store.query('SELECT COUNT(*) AS n FROM t');
    release();
    await tx;
    assert.equal(await read, [{ n: 1 }]);
  } finally {
    await store.close();
  }
});

test('a SQLite path under a regular file is an open error', async () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir.path, 'file'), 'x');
    const err = await rejection(() => openStore(`sqlite:${join(dir.path, 'file', 'vigil.db')}`));
    assert.is(err.code, StoreErrors.OPEN);
    assert.match(err.message, /cannot create the directory/);
  } finally {
    dir.cleanup();
  }
});

test('an unreachable PostgreSQL is an open error naming the server, without the password', async () => {
  const port = await freePort();
  const err = await rejection(() => openStore(`postgres://vigil:s3cret@127.0.0.1:${port}/vigil`));
  assert.is(err.code, StoreErrors.OPEN);
  assert.match(err.message, new RegExp(`cannot reach PostgreSQL at postgres://vigil:\\*\\*\\*@127\\.0\\.0\\.1:${port}/vigil`));
  assert.not.match(err.message, /s3cret/);
});

test.run();
