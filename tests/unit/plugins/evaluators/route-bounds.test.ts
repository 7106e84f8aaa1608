// The evaluators' reads at large stored data, in a real runtime (SDK harness: llm and evaluators plugins, SQLite): golden
// sets (up to 4 MB each) are listed 20 a page; deep offsets of the result and score lists are 400s; and a re-run over
// the newest traces reads their ids, templates and versions, never their content.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { TraceReader } from '../../../../plugins/llm/trace-reader.js';
import { openStore, type StoreBackend } from '../../../../runtime/store/index.js';

const KEY = 'route-bounds-project-key-0123456789';
let rt: TestRuntime;
let store: StoreBackend;

test.before(async () => {
  rt = await startTestRuntime({ plugins: [], config: { llm: { projects: [{ name: 'shop', key: KEY }] }, evaluators: {} } });
  store = await openStore(`sqlite:${rt.dataDir}/vigil.db`);
});
test.after(async () => {
  await store?.close();
  await rt?.stop();
});

const json = async (res: Response) => ({ status: res.status, body: await res.json() as any });
const dash = (path: string, init: RequestInit = {}) => rt.fetch(path, { ...init, headers: { 'content-type': 'application/json', ...init.headers } }).then(json);

test('golden sets are listed 20 a page at most, by template, and page on by offset', async () => {
  for (let i = 0; i < 25; i++) {
    const r = await dash(`/api/llm/projects/shop/golden-sets/t${String(i).padStart(2, '0')}`, { method: 'PUT', body: JSON.stringify({ outputs: [`expected ${i}`] }) });
    assert.is(r.status, 200);
  }
  const first = await dash('/api/llm/projects/shop/golden-sets?limit=200');
  assert.is(first.body.data.length, 20);
  assert.is(first.body.limit, 20);
  assert.is(first.body.data[0].template, 't00');
  const rest = await dash('/api/llm/projects/shop/golden-sets?offset=20');
  assert.equal(rest.body.data.map((g: { template: string }) => g.template), ['t20', 't21', 't22', 't23', 't24']);
});

test('result and score lists refuse an offset past 10,000 with a 400 naming it', async () => {
  for (const path of ['/api/llm/projects/shop/eval-results?offset=10001', '/api/llm/projects/shop/golden-sets?offset=10001']) {
    const r = await dash(path);
    assert.is(r.status, 400, path);
    assert.match(r.body.error.message, /offset/, path);
  }
  const scores = await json(await rt.fetch('/api/v1/scores?offset=10001', { auth: false, headers: { 'X-Service-Project-Key': KEY } }));
  assert.is(scores.status, 400);
  assert.is((await json(await rt.fetch('/api/v1/scores?offset=10000', { auth: false, headers: { 'X-Service-Project-Key': KEY } }))).status, 200);
});

test('the newest traces without content: their ids, templates and versions, and `trace` empty, for a re-run', async () => {
  const llm = store.forPlugin('llm');
  const [{ id: projectId }] = await llm.query<{ id: string }>('SELECT id FROM llm_projects WHERE name = ?', ['shop']);
  const now = Date.now();
  await llm.insertMany('llm_traces', ['id', 'created_at', 'project_id', 'model', 'status', 'template', 'version', 'trace'],
    Array.from({ length: 50 }, (_, i) => [`t-${String(i).padStart(3, '0')}`, now + i, projectId, 'm', 'ok', 'capital', 1 + (i % 3), JSON.stringify({ big: 'x'.repeat(100_000) })]));
  const reader = new TraceReader(llm);
  const light = await reader.recent(projectId, { template: 'capital', limit: 10, withoutContent: true });
  assert.equal(light.map((t) => t.id), Array.from({ length: 10 }, (_, i) => `t-${String(49 - i).padStart(3, '0')}`));
  assert.equal(light.map((t) => t.version), Array.from({ length: 10 }, (_, i) => 1 + ((49 - i) % 3)));
  assert.ok(light.every((t) => JSON.stringify(t.trace) === '{}'));
  const full = await reader.recent(projectId, { template: 'capital', limit: 1 });
  assert.is((full[0].trace as { big: string }).big.length, 100_000);
});

test.run();
