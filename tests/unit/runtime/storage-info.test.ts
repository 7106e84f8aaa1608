import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { storageInfo } from '../../../runtime/storage-info.js';

test('SQLite: the file, or :memory:', () => {
  assert.equal(storageInfo('sqlite:/var/lib/vigil/vigil.db'), { backend: 'sqlite', location: '/var/lib/vigil/vigil.db' });
  assert.equal(storageInfo('sqlite::memory:'), { backend: 'sqlite', location: ':memory:' });
});

test('PostgreSQL: host, port and database, never the user or a password from the URL or its query', () => {
  const info = storageInfo('postgres://vigil:s3cret@db.lan:6432/telemetry?password=other&sslmode=require');
  assert.equal(info, { backend: 'postgres', location: 'db.lan:6432/telemetry' });
  assert.not.match(JSON.stringify(info), /s3cret|other|vigil:/);
  assert.equal(storageInfo('postgresql://db.lan'), { backend: 'postgres', location: 'db.lan:5432/postgres' });
});

test('no store', () => {
  assert.equal(storageInfo(undefined), { backend: 'none' });
});

test.run();
