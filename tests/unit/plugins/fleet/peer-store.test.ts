// The machines entered in the dashboard, on a real SQLite store: tokens sealed under a 0600 key; a token that does
// not open under another key makes that machine down with the reason, not the whole round fail; the config file's
// machines are read-only and win a name clash.
import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fleetMigrations } from '../../../../plugins/fleet/migrations.js';
import { PeerStore } from '../../../../plugins/fleet/peer-store.js';
import { pollRound } from '../../../../plugins/fleet/poller.js';
import { openSecretBox } from '../../../../plugins/fleet/secret-box.js';
import { StatusStore } from '../../../../plugins/fleet/status-store.js';
import { openStore } from '../../../../runtime/store/index.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-fleet-store-');
const backend = await openStore('sqlite::memory:');
const store = backend.forPlugin('fleet');
await store.migrate(fleetMigrations);
test.after(async () => {
  await backend.close();
  dir.cleanup();
});

const TOKEN = 'vfr_secret-token-of-web-1-0123456789';
const failure = async (p: Promise<unknown>): Promise<Error & { code?: string }> => {
  try { await p; } catch (err) { return err as Error & { code?: string }; }
  throw new Error('expected a failure');
};

test('a token is sealed under a 0600 key and opens again; the row holds no plain token', async () => {
  const keyFile = join(dir.path, 'a', 'secrets.key');
  const peers = new PeerStore(store, () => openSecretBox(keyFile), []);
  const view = await peers.add({ name: 'web-1', url: 'http://web-1.lan:9095/', token: TOKEN });
  assert.equal(view, { name: 'web-1', url: 'http://web-1.lan:9095', source: 'store', token_hint: `••••${TOKEN.slice(-4)}` });
  assert.is(statSync(keyFile).mode & 0o777, 0o600);
  const [row] = await store.query<{ token: string }>(`SELECT token FROM ${store.table('peers')}`);
  assert.not.match(row.token, TOKEN.slice(4));
  assert.is((await peers.all())[0].token, TOKEN);
});

test('under another key the machine is unusable and shows down with the reason; the round goes on', async () => {
  const other = new PeerStore(store, () => openSecretBox(join(dir.path, 'b', 'secrets.key')), [{ name: 'cfg', url: 'http://127.0.0.1:9', token: 'vfr_config-token-0123456789' }]);
  const all = await other.all();
  assert.equal(all.map((p) => [p.name, p.unusable === undefined]), [['cfg', true], ['web-1', false]]);
  const statuses = new StatusStore(store);
  await pollRound({ peers: other, statuses, options: () => ({ timeoutMs: 500, maxBytes: 4096, validate: () => {} }), counted: () => {} });
  const last = await statuses.all();
  assert.match(last.get('web-1')!.error!, /cannot be opened with this key.*enter its token again/);
  assert.is(last.get('cfg')!.up, false, 'the config file\'s machine was polled too (nothing listens on port 9)');
});

test('a key readable by others is refused, with the code of the catalogue', async () => {
  const keyFile = join(dir.path, 'c.key');
  await openSecretBox(keyFile);
  chmodSync(keyFile, 0o644);
  assert.is((await failure(openSecretBox(keyFile))).code, 'VIGIL_ERR_FLEET_SECRET_KEY');
});

test('the config file\'s machines are read-only, and win a name clash with the dashboard\'s', async () => {
  const keyFile = join(dir.path, 'a', 'secrets.key');
  const peers = new PeerStore(store, () => openSecretBox(keyFile), [{ name: 'web-1', url: 'http://other:9095', token: 'vfr_config-token-0123456789' }]);
  assert.equal((await peers.views()).map((p) => [p.name, p.source, p.url]), [['web-1', 'config', 'http://other:9095']]);
  assert.is((await failure(peers.remove('web-1'))).code, 'VIGIL_ERR_FLEET_FROM_CONFIG');
  assert.is((await failure(peers.add({ name: 'web-1', url: 'http://x:1', token: TOKEN }))).code, 'VIGIL_ERR_FLEET_PEER_EXISTS');
});

test.run();
