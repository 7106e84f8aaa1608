// The API client in a real `vigil run`, on SQLite and on PostgreSQL stores, against a real loopback API: a Postman
// collection and an OpenAPI document imported and sent; a flow carrying a token from the login's answer into the next
// request; the timeout and the byte cap against a slow and an endless endpoint (the event loop answering meanwhile);
// the store round-tripped; secret variables used by the server and in no answer, no audit entry and no history; the
// history bounded at 50; each send audited with its URL masked.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { controlApi } from '../support/control-api.js';
import { fixture } from '../support/paths.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable, postgresUrl } from '../support/postgres.js';
import { startShopApi, type ShopApi } from '../support/shop-api.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'apiclient-run-dashboard-token-01';
const SECRET_PASSWORD = 'pw';
const API_KEY = 'shop-key-3c1f-never-returned';
const CAP = 256 * 1024;

for (const backend of ['sqlite', 'postgres'] as const) {
  const t = suite(`apiclient on ${backend}`);
  let vigil: VigilProcess | undefined;
  let shop: ShopApi;
  let base = '';
  let skip = false;
  let drop: (() => Promise<void>) | undefined;
  let pgSchema = '';
  const pgRows = async (sql: string): Promise<Record<string, unknown>[]> => {
    const c = new pg.Client({ connectionString: postgresUrl });
    await c.connect();
    try { return (await c.query(sql)).rows; } finally { await c.end(); }
  };
  const work = tempDir('vigil-apiclient-');
  const { api, post, seen } = controlApi(() => base, TOKEN);
  const req = (over: Record<string, unknown>) => ({ id: 'r1', name: 'r', folder: '', method: 'GET', url: '', headers: [], body: '', auth: { type: 'none' }, ...over });

  t.before(async () => {
    if (backend === 'postgres' && !(await postgresAvailable('apiclient-run'))) { skip = true; return; }
    let storage = '';
    if (backend === 'postgres') {
      const schema = await freshPostgresSchema('apiclient_run');
      drop = () => schema.drop();
      pgSchema = decodeURIComponent(schema.url).split('search_path=')[1];
      storage = `storage: { url: "${schema.url}" }\n`;
    }
    shop = await startShopApi(API_KEY);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    vigil = await startVigil(writeConfig(work.path, `data_dir: ${work.path}/data
${storage}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
apiclient:
  timeout: 1500ms
  max_timeout: 3s
  max_response_bytes: ${CAP}
  display_bytes: 4096
`), base, { cwd: work.path, timeoutMs: 120_000 });
  });

  t.after(async () => {
    await vigil?.stop('SIGKILL');
    await shop?.close();
    await drop?.();
    work.cleanup();
  });

  t('an unknown key under apiclient is refused', async () => {
    if (skip) return;
    const { runVigil } = await import('../support/vigil-process.js');
    const r = await runVigil(['validate', '-config', writeConfig(work.path, 'apiclient: { timout: 2s }\n', 'bad.yaml')]);
    assert.is.not(r.code, 0);
    assert.match(r.stderr, /apiclient\.timout|timout/);
  });

  t('a Postman collection imported, saved with a secret environment, sent against the loopback API', async () => {
    if (skip) return;
    const imported = await post('/api/http/import', { text: readFileSync(fixture('apiclient', 'shop.postman_collection.json'), 'utf8') });
    assert.is(imported.status, 200, imported.text);
    assert.is(imported.body.format, 'postman');
    const env = {
      id: 'env-local', name: 'Local',
      variables: [{ name: 'baseUrl', value: shop.base, secret: false }, { name: 'user', value: 'ada', secret: false },
        { name: 'password', value: SECRET_PASSWORD, secret: true }, { name: 'apiKey', value: API_KEY, secret: true }],
    };
    const saved = await post('/api/httpstore', { collections: [imported.body.collection], environments: [env], active_env: 'env-local' });
    assert.is(saved.status, 200, saved.text);
    const login = saved.body.collections[0].requests.find((r: { name: string }) => r.name === 'Log in');
    const sent = await post('/api/http', { request: login });
    assert.is(sent.status, 200, sent.text);
    assert.is(sent.body.status, 200);
    assert.match(sent.body.pretty, /"token": "tok-/);
    assert.ok(sent.body.timings.total_ms >= sent.body.timings.first_byte_ms);
    assert.is(sent.body.timings.tls_ms, null);
    assert.is(shop.tokens.size, 1, 'the login reached the API with the secret password filled in');
  });

  t('the store round-trips; secret values never come back, a secret sent empty keeps its value', async () => {
    if (skip) return;
    const store = await api('/api/httpstore');
    assert.is(store.status, 200);
    assert.is(store.body.active_env, 'env-local');
    assert.is(store.body.collections[0].name, 'Shop API');
    assert.is(store.body.collections[0].requests.length, 4);
    const vars = store.body.environments[0].variables;
    assert.equal(vars.find((v: { name: string }) => v.name === 'password'), { name: 'password', value: '', secret: true, set: true });
    // Saved back as the browser has it (secret values empty): the sealed values stay.
    assert.is((await post('/api/httpstore', { environments: store.body.environments })).status, 200);
    const key = await post('/api/http', { request: req({ url: '{{baseUrl}}/key', headers: [{ name: 'X-Api-Key', value: '{{apiKey}}' }] }) });
    assert.is(key.body.status, 200, key.text);
    assert.is(store.body.send.max_response_bytes, CAP);
    // A second environment: its secret saved, then forgotten with set: false; the first keeps its own.
    const other = { id: 'env-other', name: 'Other', variables: [{ name: 'k', value: 'other-secret-value', secret: true }] };
    const two = await post('/api/httpstore', { environments: [...store.body.environments, other] });
    assert.equal(two.body.environments[1].variables, [{ name: 'k', value: '', secret: true, set: true }]);
    const forgot = await post('/api/httpstore', { environments: [...store.body.environments, { ...other, variables: [{ name: 'k', value: '', secret: true, set: false }] }] });
    assert.equal(forgot.body.environments[1].variables, [{ name: 'k', value: '', secret: true, set: false }]);
    assert.is(forgot.body.environments[0].variables.find((v: { name: string }) => v.name === 'apiKey').set, true);
    const unset = await post('/api/http', { request: req({ url: '{{baseUrl}}/key?k={{k}}' }), environment_id: 'env-other' });
    assert.is(unset.status, 400, 'a forgotten secret has no value');
    assert.match(unset.body.error.message, /\{\{k\}\}/);
    assert.is((await post('/api/httpstore', { environments: store.body.environments })).status, 200);
  });

  t('an OpenAPI document imported, its request sent with a token filled in', async () => {
    if (skip) return;
    const imported = await post('/api/http/import', { text: readFileSync(fixture('apiclient', 'shop.openapi.yaml'), 'utf8') });
    assert.is(imported.status, 200, imported.text);
    const me = imported.body.collection.requests.find((r: { name: string }) => r.name === 'Me');
    const token = [...shop.tokens][0];
    const sent = await post('/api/http', { request: me, variables: { baseUrl: shop.base, token } });
    assert.is(sent.body.status, 200, sent.text);
    assert.equal(JSON.parse(sent.body.body), { name: 'Ada Lovelace', role: 'owner' });
    const missing = await post('/api/http', { request: me, environment_id: null });
    assert.is(missing.status, 400);
    assert.match(missing.body.error.message, /no value for \{\{baseUrl\}\}, \{\{token\}\}/);
  });

  t('a flow passes the token from the login\'s answer to the next request', async () => {
    if (skip) return;
    const store = await api('/api/httpstore');
    const requests = store.body.collections[0].requests;
    const flow = {
      id: 'flow-login', name: 'Log in, then list',
      steps: [
        { request: requests.find((r: { name: string }) => r.name === 'Log in'), extract: [{ variable: 'token', from: 'json', path: '$.data.token' }, { variable: 'session', from: 'header', path: 'X-Session' }] },
        { request: requests.find((r: { name: string }) => r.name === 'List items'), extract: [{ variable: 'first', from: 'json', path: 'items[0].name' }] },
      ],
    };
    assert.is((await post('/api/httpstore', { flows: [flow] })).status, 200);
    const ran = await post('/api/http/flow', { flow_id: 'flow-login' });
    assert.is(ran.status, 200, ran.text);
    assert.is(ran.body.completed, true, ran.text);
    assert.match(ran.body.steps[0].extracted.token, /^tok-2-/);
    assert.match(ran.body.steps[0].extracted.session, /^sess-/);
    assert.is(ran.body.steps[1].response.status, 200);
    assert.is(ran.body.steps[1].extracted.first, 'item 1');
    // Without the extraction the second step has no token: the API refuses it, and the flow stops there.
    const broken = await post('/api/http/flow', { flow: { ...flow, steps: [flow.steps[1]] }, variables: { token: 'wrong' } });
    assert.is(broken.body.completed, false);
    assert.is(broken.body.steps[0].response.status, 401);
  });

  t('the timeout closes a request the target never finishes; the event loop answers meanwhile', async () => {
    if (skip) return;
    const slow = post('/api/http', { request: req({ url: `${shop.base}/slow` }), timeout_ms: 1000 });
    const health = await fetch(`${base}/api/health`);
    assert.is(health.status, 200);
    const res = await slow;
    assert.is(res.status, 504, res.text);
    assert.is(res.body.error.code, 'VIGIL_ERR_APICLIENT_TIMEOUT');
    const capped = await post('/api/http', { request: req({ url: `${shop.base}/slow` }), timeout_ms: 3_600_000 });
    assert.is(capped.status, 504, 'max_timeout (3s) caps what a request asks for');
    assert.match(capped.body.error.message, /within 3000 ms/);
    const byDefault = await post('/api/http', { request: req({ url: `${shop.base}/slow` }) });
    assert.match(byDefault.body.error.message, /within 1500 ms/);
  });

  t('the byte cap cuts an endless body; the browser gets display_bytes of it', async () => {
    if (skip) return;
    const res = await post('/api/http', { request: req({ url: `${shop.base}/huge` }), timeout_ms: 3000 });
    assert.is(res.status, 200, res.text.slice(0, 300));
    assert.is(res.body.truncated, true);
    assert.is(res.body.size_bytes, CAP);
    assert.is(res.body.shown_bytes, 4096);
    assert.is(res.body.body.length, 4096);
    const zipped = await post('/api/http', { request: req({ url: `${shop.base}/gzip` }) });
    assert.equal(JSON.parse(zipped.body.pretty), { zipped: true, list: [1, 2, 3] });
  });

  t('exports: curl leaves the secret to a shell variable, never its value', async () => {
    if (skip) return;
    const r = req({ method: 'POST', url: '{{baseUrl}}/login', headers: [{ name: 'Content-Type', value: 'application/json' }], body: '{"user":"{{user}}","password":"{{password}}"}' });
    const curl = await post('/api/http/export', { request: r, format: 'curl' });
    assert.is(curl.status, 200, curl.text);
    assert.ok(curl.body.text.includes(`curl -X POST '${shop.base}/login'`), curl.body.text);
    assert.ok(curl.body.text.includes(`'"$PASSWORD"'`), curl.body.text);
    assert.equal(curl.body.secrets, ['password']);
    const http = await post('/api/http/export', { request: r, format: 'http' });
    assert.match(http.body.text, /^POST \/login HTTP\/1\.1\r\nHost: 127\.0\.0\.1:\d+\r\n/);
  });

  t('every send is audited with its URL masked; the history keeps templates, at most 50', async () => {
    if (skip) return;
    await post('/api/http', { request: req({ url: `${shop.base}/items?api_key={{apiKey}}&limit=1` }) });
    const audit = await waitFor(async () => {
      const a = await api('/api/audit?limit=100');
      return a.body.entries.some((e: { target: string }) => e.target.includes('api_key=***')) ? a : undefined;
    }, { what: 'the masked send in the audit log' });
    const sends = audit!.body.entries.filter((e: { action: string }) => e.action === 'api client send');
    assert.ok(sends.some((e: { status: number; target: string }) => e.status === 504 && e.target.endsWith('/slow')));
    for (let i = 0; i < 52; i++) await post('/api/http', { request: req({ url: `${shop.base}/me?n=${i}` }) });
    const store = await api('/api/httpstore');
    assert.is(store.body.history.length, 50);
    assert.is(store.body.history[0].url, `${shop.base}/me?n=51`);
    assert.is(store.body.history[0].status, 401);
    assert.ok(store.body.history.every((h: { url: string }) => !h.url.includes(API_KEY)));
    assert.is((await post('/api/httpstore', { clear_history: true })).body.history.length, 0);
  });

  t('bad input: unknown fields and oversize values are 400s with a reason', async () => {
    if (skip) return;
    const extra = await post('/api/http', { request: req({ url: 'http://x' }), nope: 1 });
    assert.is(extra.status, 400);
    const ftp = await post('/api/http', { request: req({ url: 'ftp://x/' }) });
    assert.is(ftp.status, 400);
    assert.match(ftp.body.error.message, /not ftp:/);
    const relative = await post('/api/http', { request: req({ url: 'items?key={{apiKey}}' }) });
    assert.is(relative.status, 400);
    assert.match(relative.body.error.message, /"items\?key=\*\*\*" is not an absolute URL/);
    const notDoc = await post('/api/http/import', { text: '{"hello": "world"}' });
    assert.is(notDoc.status, 400);
    assert.is(notDoc.body.error.code, 'VIGIL_ERR_APICLIENT_IMPORT');
  });

  t('sends past 8 at once are refused, none held open', async () => {
    if (skip) return;
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/api/http', { request: req({ url: `${shop.base}/slow` }), timeout_ms: 1500 })));
    const statuses = answers.map((a) => a.status).sort();
    assert.equal(statuses, [429, 429, 504, 504, 504, 504, 504, 504, 504, 504], answers.map((a) => a.text.slice(0, 120)).join(' | '));
    assert.is(answers.find((a) => a.status === 429)!.body.error.code, 'VIGIL_ERR_APICLIENT_BUSY');
  });

  t('no answer, audit entry or stored row held a secret value', async () => {
    if (skip) return;
    assert.ok(seen.length > 60);
    for (const text of seen) assert.not.ok(text.includes(API_KEY), text.slice(0, 200));
    for (const text of seen.filter((s) => s.includes('"environments"'))) assert.not.match(text, /"value":"pw"/);
    // The store itself: the secret's bytes appear in no file of the data folder (SQLite) or no row (PostgreSQL).
    if (backend === 'sqlite') {
      const grep = spawnSync('grep', ['-rl', API_KEY, join(work.path, 'data')], { encoding: 'utf8' });
      assert.is(grep.stdout, '', `files holding the secret: ${grep.stdout}`);
    } else {
      const rows = await pgRows(`SELECT body FROM ${pgSchema}.apiclient_items WHERE kind = 'environment'`);
      assert.ok(rows.length > 0);
      for (const r of rows) { assert.not.ok(String(r.body).includes(API_KEY)); assert.match(String(r.body), /"sealed":/); }
    }
  });

  t.run();
}
