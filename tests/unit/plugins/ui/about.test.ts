// What the shell and the About page learn from the server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { repoRoot } from '../../../support/paths.js';
import { startUi } from './ui-harness.js';

const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;

interface About {
  version: string; install_method: string; data_dir: string; config_file: string | null;
  storage: { backend: string; location?: string }; started_at: number; uptime_s: number;
  node: string; platform: string; control_plane: string; plugins: { name: string; version: string }[];
}

test('About: version, install method, data directory, config file, storage, uptime and plugins; never the token', async () => {
  const h = await startUi();
  try {
    const res = await h.page('/api/ui/about');
    assert.is(res.status, 200);
    const text = await res.text();
    assert.not.ok(text.includes(h.rt.token), 'no token');
    const a = JSON.parse(text) as About;
    assert.is(a.version, version);
    assert.ok(['git checkout', 'npm package', 'global npm package', 'npx', 'source tree'].includes(a.install_method), a.install_method);
    assert.is(a.data_dir, h.rt.dataDir);
    assert.is(a.config_file, join(h.rt.dataDir, 'vigil.yaml'));
    assert.equal(a.storage, { backend: 'sqlite', location: join(h.rt.dataDir, 'vigil.db') });
    assert.ok(a.started_at <= Date.now() && a.started_at > Date.now() - 60_000);
    assert.ok(a.uptime_s >= 0);
    assert.is(a.node, process.version);
    assert.is(a.control_plane, h.rt.url);
    assert.equal(a.plugins.map((p) => p.name), ['ui']);
    assert.is(a.plugins[0].version, '0.1.0');
  } finally {
    await h.stop();
  }
});

test('the shell learns which areas are configured from the enabled plugins', async () => {
  const off = await startUi();
  try {
    const shell = await (await off.page('/api/ui/shell')).json() as { version: string; areas: { id: string; configured: boolean }[]; plugins: string[] };
    assert.is(shell.version, version);
    assert.equal(shell.areas, [{ id: 'gateway', configured: false }, { id: 'llm', configured: false }, { id: 'host', configured: false }]);
    assert.equal(shell.plugins, ['ui']);
  } finally {
    await off.stop();
  }
  const on = await startUi({ config: { rules: [{ name: 'all', match: { path: '/**' } }], capture: {} } });
  try {
    const shell = await (await on.page('/api/ui/shell')).json() as { areas: { id: string; configured: boolean }[]; plugins: string[] };
    assert.equal(shell.areas.find((a) => a.id === 'gateway'), { id: 'gateway', configured: true });
    assert.ok(shell.plugins.includes('capture') && shell.plugins.includes('governance'));
    const about = await (await on.page('/api/ui/about')).json() as About;
    assert.equal(about.plugins.map((p) => p.name), ['governance', 'capture', 'ui'], 'in start order');
  } finally {
    await on.stop();
  }
});

test('the API needs the session or the token', async () => {
  const h = await startUi();
  try {
    for (const path of ['/api/ui/shell', '/api/ui/about', '/api/ui/settings']) {
      assert.is((await h.raw(path)).status, 401, path);
      assert.is((await h.raw(path, { headers: { authorization: `Bearer ${h.rt.token}` } })).status, 200, path);
    }
  } finally {
    await h.stop();
  }
});

test.run();
