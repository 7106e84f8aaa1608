// The API client's store (plugins/apiclient/http-store.ts) on SQLite and PostgreSQL: a save that sends a secret
// variable without its value keeps the saved one, and reads what is saved when its own transaction runs, so two saves
// at once cannot bring back a secret the other has just replaced.
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SecretBox } from '@vigil/plugin-sdk';
import { apiClientMigrations } from '../../../../plugins/apiclient/migrations.js';
import { HttpStore } from '../../../../plugins/apiclient/http-store.js';
import type { Environment } from '../../../../plugins/apiclient/types.js';
import { backendKinds } from '../../runtime/store/backend-kinds.js';
import { tempDir } from '../../../support/tmp.js';

const kinds = await backendKinds('apiclient_http_store');
const keys = tempDir('vigil-apiclient-key-');

const env = (value: string, extra: Partial<Environment> = {}): Environment => ({
  id: 'env-1', name: 'staging', variables: [{ name: 'token', value, secret: true }], ...extra,
});

async function openHttpStore(url: string, kind: (typeof kinds)[number]): Promise<HttpStore> {
  const store = (await kind.open(url)).forPlugin('apiclient');
  await store.migrate(apiClientMigrations);
  return new HttpStore(store, SecretBox.opener(join(keys.path, `${kind.name}.key`), { plugin: 'apiclient', code: 'APICLIENT_SECRET_KEY', valueOf: 'the secret variable' }));
}

for (const kind of kinds) {
  test(`${kind.name}: a secret sent without a value keeps the saved one; set: false forgets it`, async () => {
    const store = await openHttpStore(await kind.fresh(), kind);
    await store.apply({ environments: [env('old-secret')] });
    await store.apply({ environments: [env('', { name: 'staging 2' })] });
    assert.is((await store.scope('env-1')).values.get('token'), 'old-secret');
    const view = await store.view();
    assert.equal(view.environments[0].variables, [{ name: 'token', value: '', secret: true, set: true }], 'the browser never gets the value');
    await store.apply({ environments: [{ id: 'env-1', name: 'staging', variables: [{ name: 'token', value: '', secret: true, set: false }] }] });
    assert.is((await store.scope('env-1')).values.has('token'), false);
  });

  test(`${kind.name}: a save that keeps the secret, at the same time as one that replaces it, keeps the new one`, async () => {
    const store = await openHttpStore(await kind.fresh(), kind);
    // Twenty rounds: the order the two commit in varies between them on PostgreSQL's pool. Each round, both start at
    // once, and the second keeps whatever token is saved when it is written: the new one, whichever commits first.
    // (Its own secret, pin, is there only when it commits last: each save replaces the whole list.)
    for (let round = 0; round < 20; round++) {
      await store.apply({ environments: [env('old-secret')] });
      await Promise.all([
        store.apply({ environments: [env('new-secret')] }),
        // It also sets a secret of its own, so both seal a value and reach the store in the same turns.
        store.apply({ environments: [env('', { variables: [{ name: 'token', value: '', secret: true }, { name: 'pin', value: '1234', secret: true }] })] }),
      ]);
      assert.is((await store.scope('env-1')).values.get('token'), 'new-secret', `round ${round}`);
    }
  });
}

test.after(async () => {
  await Promise.all(kinds.map((k) => k.cleanup()));
  keys.cleanup();
});

test.run();
