import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore, StoreErrors } from '../../../../runtime/store/index.js';
import { pluginTableName } from '../../../../runtime/store/plugin-store.js';
import { rejection } from './backend-kinds.js';

test('table names are <plugin>_<name> with dashes as underscores', () => {
  assert.is(pluginTableName('capture', 'records'), 'capture_records');
  assert.is(pluginTableName('llm-traces', 'eval-results'), 'llm_traces_eval_results');
  assert.throws(() => pluginTableName('p', 'a b'), (err: Error & { code: string }) => err.code === StoreErrors.IDENTIFIER);
});

test('a plugin store shares the backend and records migrations under the plugin name', async () => {
  const backend = await openStore('sqlite::memory:');
  try {
    const store = backend.forPlugin('hello-world');
    await store.migrate([{ version: 1, name: 'greetings', up: `CREATE TABLE ${store.table('greetings')} (id INTEGER PRIMARY KEY, text TEXT)` }]);
    assert.is(await store.insertMany(store.table('greetings'), ['id', 'text'], [[1, 'hi'], [2, 'hello']]), 2);
    assert.equal(await backend.query('SELECT text FROM hello_world_greetings ORDER BY id'), [{ text: 'hi' }, { text: 'hello' }]);
    assert.equal(await backend.query('SELECT plugin, version FROM vigil_migrations'), [{ plugin: 'hello-world', version: 1 }]);
    const n = await store.transaction(async (tx) => (await tx.run('DELETE FROM hello_world_greetings WHERE id = ?', [1])).changes);
    assert.is(n, 1);
    assert.equal(await store.run('DELETE FROM hello_world_greetings'), { changes: 1 });
    assert.is((await rejection(() => store.query('SELECT ? AS a'))).code, StoreErrors.PARAMS);
  } finally {
    await backend.close();
  }
});

test.run();
