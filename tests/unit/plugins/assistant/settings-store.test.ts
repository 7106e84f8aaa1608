// The provider settings on both stores: the key sealed in the row (read back from the table, not in clear), opened
// for the provider, kept across a change of model, forgotten on request or with a provider that takes none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { SecretBox } from '@vigil/plugin-sdk';
import { assistantMigrations } from '../../../../plugins/assistant/migrations.js';
import { SettingsStore } from '../../../../plugins/assistant/settings-store.js';
import { openStore } from '../../../../runtime/store/index.js';
import { freshPostgresSchema, postgresAvailable } from '../../../support/postgres.js';
import { tempDir } from '../../../support/tmp.js';

const KEY = 'sk-test-key-that-stays-sealed-0042';
const work = tempDir('vigil-assistant-settings-');

async function exercise(url: string, name: string) {
  const runtimeStore = await openStore(url);
  try {
    const store = runtimeStore.forPlugin('assistant');
    await store.migrate(assistantMigrations);
    const settings = new SettingsStore(store, SecretBox.opener(join(work.path, `${name}.key`), { plugin: 'assistant', code: 'VIGIL_ERR_ASSISTANT_SECRET_KEY', valueOf: 'the API key' }));
    assert.is((await settings.view()).configured, false, name);
    const view = await settings.save({ provider: 'openai', model: 'gpt-test', base_url: 'https://llm.example/v1', api_key: KEY });
    assert.equal(view, { configured: true, provider: 'openai', model: 'gpt-test', base_url: 'https://llm.example/v1', command: null, key_set: true }, name);
    const [row] = await store.query<{ api_key: string }>('SELECT api_key FROM assistant_settings');
    assert.ok(row.api_key.startsWith('v1.'), name);
    assert.not.ok(row.api_key.includes(KEY), `${name}: the key is in the row in clear`);
    assert.is((await settings.settings())!.api_key, KEY, name);
    await settings.save({ provider: 'openai', model: 'gpt-other', base_url: 'https://llm.example/v1' });
    assert.is((await settings.settings())!.api_key, KEY, `${name}: a change of model keeps the key`);
    await settings.save({ provider: 'cli', command: ['llm', '-m', 'x'] });
    assert.equal(await settings.view(), { configured: true, provider: 'cli', model: null, base_url: null, command: ['llm', '-m', 'x'], key_set: false }, name);
    await settings.clear();
    assert.is(await settings.settings(), null, name);
  } finally {
    await runtimeStore.close();
  }
}

test('SQLite', () => exercise(`sqlite:${join(work.path, 'store.db')}`, 'sqlite'));

test('PostgreSQL', async () => {
  if (!(await postgresAvailable('assistant settings-store'))) return;
  const schema = await freshPostgresSchema('assistant_settings');
  try {
    await exercise(schema.url, 'postgres');
  } finally {
    await schema.drop();
  }
});

test.after(() => work.cleanup());
test.run();
