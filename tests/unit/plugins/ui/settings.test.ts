// Display settings: per installation in the store (SQLite and PostgreSQL), written only by the dashboard's own page
// or a script with the token, and echoed into index.html.
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshPostgresSchema, postgresAvailable } from '../../../support/postgres.js';
import { tempDir } from '../../../support/tmp.js';
import { startUi } from './ui-harness.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const dark = { theme: 'dark', simple_mode: true, reduce_effects: false };

test('defaults, then a PUT from the page: stored, answered, and on index.html', async () => {
  const h = await startUi();
  try {
    assert.equal(await (await h.page('/api/ui/settings')).json(), { theme: 'system', simple_mode: false, reduce_effects: false });
    const put = await h.page('/api/ui/settings', { method: 'PUT', headers: JSON_HEADERS, body: JSON.stringify(dark) });
    assert.is(put.status, 200);
    assert.equal(await put.json(), dark);
    assert.equal(await (await h.page('/api/ui/settings')).json(), dark);
    assert.match(await (await h.page('/gateway')).text(), /<html lang="en" data-theme="dark" data-simple-mode="true" data-reduce-effects="false">/);
    assert.equal(((await (await h.page('/api/ui/shell')).json()) as { settings: unknown }).settings, dark);
  } finally {
    await h.stop();
  }
});

test('the same-origin rule: a cookie write needs Origin or Sec-Fetch-Site from our page; the token needs neither', async () => {
  const h = await startUi();
  try {
    const body = JSON.stringify(dark);
    const noProof = await h.raw('/api/ui/settings', { method: 'PUT', headers: { ...JSON_HEADERS, cookie: h.cookie }, body });
    assert.is(noProof.status, 403);
    assert.is(((await noProof.json()) as { error: { code: string } }).error.code, 'VIGIL_ERR_HTTP_FORBIDDEN_ORIGIN');
    const otherSite = await h.raw('/api/ui/settings', { method: 'PUT', headers: { ...JSON_HEADERS, cookie: h.cookie, origin: 'http://evil.example' }, body });
    assert.is(otherSite.status, 403);
    const fetchMeta = await h.raw('/api/ui/settings', { method: 'PUT', headers: { ...JSON_HEADERS, cookie: h.cookie, 'sec-fetch-site': 'cross-site' }, body });
    assert.is(fetchMeta.status, 403);
    assert.equal(await (await h.page('/api/ui/settings')).json(), { theme: 'system', simple_mode: false, reduce_effects: false }, 'nothing changed');
    const originOnly = await h.raw('/api/ui/settings', { method: 'PUT', headers: { ...JSON_HEADERS, cookie: h.cookie, origin: h.rt.url }, body });
    assert.is(originOnly.status, 200, 'a browser without fetch metadata proves it with Origin');
    const script = await h.raw('/api/ui/settings', { method: 'PUT', headers: { ...JSON_HEADERS, authorization: `Bearer ${h.rt.token}` }, body: JSON.stringify({ ...dark, theme: 'light' }) });
    assert.is(script.status, 200);
    assert.is(((await (await h.page('/api/ui/settings')).json()) as { theme: string }).theme, 'light');
  } finally {
    await h.stop();
  }
});

test('bad bodies are 400s that name the key; nothing is stored', async () => {
  const h = await startUi();
  try {
    const put = (body: string) => h.page('/api/ui/settings', { method: 'PUT', headers: JSON_HEADERS, body });
    for (const [body, path] of [
      [JSON.stringify({ ...dark, theme: 'neon' }), /theme/],
      [JSON.stringify({ ...dark, extra: 1 }), /extra/],
      [JSON.stringify({ theme: 'dark' }), /simple_mode|reduce_effects/],
      [JSON.stringify({ ...dark, simple_mode: 'yes' }), /simple_mode/],
      ['{"theme":', /JSON/i],
    ] as const) {
      const res = await put(body);
      assert.is(res.status, 400, body);
      const error = ((await res.json()) as { error: { message: string; path?: string } }).error;
      assert.match(`${error.path ?? ''} ${error.message}`, path, body);
    }
    const big = await put(JSON.stringify({ ...dark, pad: 'x'.repeat(4096) }));
    assert.is(big.status, 413);
    assert.equal(await (await h.page('/api/ui/settings')).json(), { theme: 'system', simple_mode: false, reduce_effects: false });
  } finally {
    await h.stop();
  }
});

async function persists(storage: { url: string } | undefined, dataDir: string): Promise<void> {
  const config = { data_dir: dataDir, ...(storage ? { storage } : {}) };
  const first = await startUi({ config });
  try {
    assert.is((await first.page('/api/ui/settings', { method: 'PUT', headers: JSON_HEADERS, body: JSON.stringify(dark) })).status, 200);
  } finally {
    await first.stop();
  }
  const second = await startUi({ config });
  try {
    assert.equal(await (await second.page('/api/ui/settings')).json(), dark, 'the next start of the installation has them');
  } finally {
    await second.stop();
  }
}

test('settings persist across restarts of the installation (SQLite)', async () => {
  const dir = tempDir();
  try {
    await persists({ url: `sqlite:${join(dir.path, 'shared.db')}` }, join(dir.path, 'data'));
  } finally {
    dir.cleanup();
  }
});

test('settings persist across restarts of the installation (PostgreSQL, when reachable)', async () => {
  if (!(await postgresAvailable('ui settings'))) return;
  const schema = await freshPostgresSchema('ui_settings');
  const dir = tempDir();
  try {
    await persists({ url: schema.url }, dir.path);
  } finally {
    dir.cleanup();
    await schema.drop();
  }
});

test.run();
