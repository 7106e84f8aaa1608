import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError, VigilError, type Store } from '@vigil/plugin-sdk';
import { llmMigrations } from '../../../../plugins/llm/migrations.js';
import { hashKey } from '../../../../plugins/llm/project-keys.js';
import { ProjectStore } from '../../../../plugins/llm/project-store.js';
import { backendKinds, type BackendKind } from '../../runtime/store/backend-kinds.js';

async function refusal(p: Promise<unknown>): Promise<HttpError> {
  const err = await configRefusal(p);
  if (err instanceof HttpError) return err;
  throw err;
}

/** A refusal that is not an HTTP answer: the config sync at start and reload. */
async function configRefusal(p: Promise<unknown>): Promise<VigilError> {
  try { await p; } catch (err) { if (err instanceof VigilError) return err; throw err; }
  throw new Error('expected a refusal');
}

function define(kind: BackendKind) {
  const test = suite(`project store (${kind.name})`);
  test.after(() => kind.cleanup());
  let now = 1_000_000;
  const fresh = async (): Promise<{ store: Store; projects: ProjectStore }> => {
    const store = (await kind.open(await kind.fresh())).forPlugin('llm');
    await store.migrate(llmMigrations);
    return { store, projects: new ProjectStore(store, () => now) };
  };

  test('keys are kept as SHA-256 only; a rotated key works until its grace ends, then is refused', async () => {
    const { store, projects } = await fresh();
    const { key } = await projects.create('acme');
    const stored = await store.query<{ key_hash: string }>('SELECT key_hash FROM llm_project_keys');
    assert.equal(stored.map((r) => r.key_hash), [hashKey(key)]);
    assert.not.ok(JSON.stringify(await store.query('SELECT * FROM llm_project_keys')).includes(key));
    const rotatedAt = now;
    const rotated = await projects.rotateKey('acme', 60_000);
    const graced = await projects.byKeyHash(hashKey(key));
    assert.equal([graced?.project.name, graced?.expires_at], ['acme', rotatedAt + 60_000], 'with the end of its grace, for the key cache');
    now += 60_001;
    assert.is(await projects.byKeyHash(hashKey(key)), undefined);
    const active = await projects.byKeyHash(hashKey(rotated.key));
    assert.equal([active?.project.name, active?.expires_at], ['acme', null]);
    // A second rotation does not extend the first one's grace.
    await projects.rotateKey('acme', 0);
    assert.is(await projects.byKeyHash(hashKey(rotated.key)), undefined);
  });

  test('the config file wins: its projects get its settings and only its key; a project it drops keeps its data without that key', async () => {
    const { projects } = await fresh();
    const { key: storeKey } = await projects.create('shared');
    await projects.syncConfig([{ name: 'shared', key: 'file-key-0123456789abcd', retention: '7d' }, { name: 'only-file', key_sha256: hashKey('other-key-0123456789') }]);
    assert.is(await projects.byKeyHash(hashKey(storeKey)), undefined, 'the store key of a project the file declares is replaced');
    const shared = (await projects.byKeyHash(hashKey('file-key-0123456789abcd')))?.project;
    assert.equal([shared?.source, shared?.settings], ['config', { retention: '7d' }]);
    assert.is((await projects.byKeyHash(hashKey('other-key-0123456789')))?.project.name, 'only-file');
    assert.is((await refusal(projects.updateSettings('shared', {}))).code, 'VIGIL_ERR_LLM_PROJECT_FROM_CONFIG');
    assert.is((await refusal(projects.delete('only-file'))).status, 409);
    assert.is((await refusal(projects.create('only-file'))).code, 'VIGIL_ERR_LLM_PROJECT_EXISTS');
    // Syncing twice changes nothing; then the file drops "only-file".
    await projects.syncConfig([{ name: 'shared', key: 'file-key-0123456789abcd', retention: '7d' }, { name: 'only-file', key_sha256: hashKey('other-key-0123456789') }]);
    const result = await projects.syncConfig([{ name: 'shared', key: 'file-key-0123456789abcd' }]);
    assert.equal(result.demoted, ['only-file']);
    const dropped = await projects.get('only-file');
    assert.is(dropped?.source, 'store');
    assert.is(await projects.byKeyHash(hashKey('other-key-0123456789')), undefined);
    assert.ok((await projects.rotateKey('only-file', 0)).key.startsWith('vk_'), 'a store project again: the CLI can give it a key');
    const clash = await configRefusal(projects.syncConfig([{ name: 'x', key: 'file-key-0123456789abcd' }, { name: 'shared', key: 'file-key-0123456789abcd' }]));
    assert.is(clash.code, 'VIGIL_ERR_LLM_CONFIG');
    assert.not.instance(clash, HttpError, 'the config sync answers no request');
  });

  test('delete removes the project, its keys and its data; names are checked', async () => {
    const { store, projects } = await fresh();
    const { project, key } = await projects.create('gone');
    await store.run("INSERT INTO llm_traces (id, created_at, project_id, model, status, trace) VALUES ('t1', 1, ?, 'm', 'ok', '{}')", [project.id]);
    await store.run("INSERT INTO llm_usage (project_id, month, items, cost_usd, sampled_out) VALUES (?, '2025-01', 1, 0, 0)", [project.id]);
    assert.equal(await projects.delete('gone'), { traces: 1 });
    assert.is(await projects.byKeyHash(hashKey(key)), undefined);
    for (const t of ['llm_traces', 'llm_usage', 'llm_project_keys', 'llm_projects']) {
      assert.is(Number((await store.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`))[0].n), 0, t);
    }
    assert.is((await refusal(projects.delete('gone'))).status, 404);
    assert.is((await refusal(projects.create('-bad'))).code, 'VIGIL_ERR_LLM_PROJECT_NAME');
    assert.is((await refusal(projects.create('x'.repeat(65)))).status, 400);
  });

  return test;
}

for (const kind of await backendKinds('llm_project_store')) define(kind).run();
