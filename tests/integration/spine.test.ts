import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, fromRoot } from '../support/paths.js';
import { freePort, waitFor } from '../support/net.js';
import { promtoolCheck } from '../support/promtool.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

/** GET through node:http, which sends the Host header given (fetch does not). */
function hostRequest(base: string, path: string, host: string): Promise<{ status: number; body: string; cookie?: string[] }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, cookie: res.headers['set-cookie'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

const cli = suite('cli');

cli('validate: a misspelt nested key exits 2 with file, line, key path and suggestion', async () => {
  const r = await runVigil(['validate', '-config', fixture('spine/misspelt.yaml')]);
  assert.is(r.code, 2);
  assert.match(r.stderr, /misspelt\.yaml:5:5/);
  assert.match(r.stderr, /control_plane\.lockout\.windw/);
  assert.match(r.stderr, /did you mean window\?/);
});

cli('validate: the example config is valid', async () => {
  const r = await runVigil(['validate', '--config', fromRoot('examples/vigil.yaml')]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /valid \(plugins: governance, capture, ui, llm, evaluators, channels, alerts, probes, network, files\)/);
});

cli('a plugin checkConfig problem (duplicate rule name) is a config error with its line: exit 2', async () => {
  const r = await runVigil(['validate', '-config', fixture('gateway/duplicate-rule.yaml')]);
  assert.is(r.code, 2);
  assert.match(r.stderr, /duplicate-rule\.yaml:6:\d+: rules\[1\]\.name/);
});

cli('unknown command and unknown flag print help and exit 2', async () => {
  const a = await runVigil(['frobnicate']);
  assert.is(a.code, 2);
  assert.match(a.stderr, /unknown command "frobnicate"/);
  assert.match(a.stderr, /Usage: vigil <command>/);
  const b = await runVigil(['validate', '-confg', 'x.yaml']);
  assert.is(b.code, 2);
  assert.match(b.stderr, /unknown flag -confg/);
});

cli('schema prints a JSON Schema with the core keys', async () => {
  const r = await runVigil(['schema']);
  assert.is(r.code, 0);
  const schema = JSON.parse(r.stdout);
  assert.ok(schema.properties.control_plane);
  assert.ok(schema.properties.storage);
  assert.is(schema.additionalProperties, false);
});

cli('version prints the package version', async () => {
  const r = await runVigil(['version']);
  const pkg = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8'));
  assert.match(r.stdout, new RegExp(`vigil ${pkg.version.replace(/\./g, '\\.')}`));
});

cli('a plugin that fails to start stops the runtime with exit 1, naming it', async () => {
  const dir = tempDir();
  const port = await freePort();
  const file = writeConfig(dir.path, `data_dir: ${dir.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: t0k }
plugins:
  - use: ${fixture('spine/failing-plugin.js')}
`);
  const r = await runVigil(['run', '-config', file]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /plugin flaky-start failed to start: cannot reach the license server/);
  dir.cleanup();
});

cli('run on an unknown key exits 2 before listening', async () => {
  const dir = tempDir();
  const port = await freePort();
  const file = writeConfig(dir.path, `control_plane: { listen: 127.0.0.1:${port} }\nstorge: { url: x }\n`);
  const r = await runVigil(['run', '-config', file]);
  assert.is(r.code, 2);
  assert.match(r.stderr, /unknown key storge.*did you mean storage/);
  dir.cleanup();
});

cli('control_plane.allowed_hosts: a listed name is answered, any other Host gets 421 before auth', async () => {
  const dir = tempDir();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const file = writeConfig(dir.path, `data_dir: ${dir.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: t0k, allowed_hosts: [vigil.test] }
`);
  const vigil = await startVigil(file, base);
  try {
    const viaName = await hostRequest(base, '/api/health', `vigil.test:${port}`);
    assert.is(viaName.status, 200);
    const rebound = await hostRequest(base, '/?token=t0k', `attacker.example:${port}`);
    assert.is(rebound.status, 421);
    assert.is(JSON.parse(rebound.body).error.code, 'VIGIL_ERR_HTTP_HOST_NOT_ALLOWED');
    assert.is(rebound.cookie, undefined);
    const schema = JSON.parse((await runVigil(['schema'])).stdout);
    assert.is(schema.properties.control_plane.properties.allowed_hosts.type, 'array');
    const bad = writeConfig(dir.path, 'control_plane: { allowed_hosts: [ok.example, "bad host:80"] }\n', 'bad.yaml');
    const r = await runVigil(['validate', '-config', bad]);
    assert.is(r.code, 2);
    assert.match(r.stderr, /bad\.yaml:1:\d+: control_plane\.allowed_hosts\[1\]/);
  } finally {
    await vigil.stop('SIGKILL');
    dir.cleanup();
  }
});

cli('a third-party plugin loaded by path: its route needs the token, is listed in /api, and its metric is on /metrics', async () => {
  const dir = tempDir();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const file = writeConfig(dir.path, `data_dir: ${dir.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: t0k }
plugins:
  - use: ${fromRoot('examples/hello-plugin')}
    with: { greeting: hi }
`);
  const vigil = await startVigil(file, base);
  try {
    assert.is((await fetch(`${base}/api/hello`)).status, 401);
    const res = await fetch(`${base}/api/hello?name=ada`, { headers: { authorization: 'Bearer t0k' } });
    assert.is(res.status, 200);
    assert.equal(await res.json(), { message: 'hi, ada' });
    const doc = (await (await fetch(`${base}/api`, { headers: { authorization: 'Bearer t0k' } })).json()) as { paths: Record<string, { get?: unknown }> };
    assert.ok(doc.paths['/api/hello']?.get, 'hello route listed');
    assert.match(await (await fetch(`${base}/metrics`)).text(), /^vigil_hello_greetings_total\{name="ada"\} 1$/m);
  } finally {
    await vigil.stop('SIGKILL');
    dir.cleanup();
  }
});

cli.run();

// The example config, run as `npm start` runs it: first run generates and prints a token.
const example = suite('example config');
let vigil: VigilProcess;
let base = '';
let token = '';
const work = tempDir();

example.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  vigil = await startVigil(fromRoot('examples/vigil.yaml'), base, { cwd: work.path, env: { VIGIL_LISTEN: `127.0.0.1:${port}`, VIGIL_TOKEN: '' } });
  // The line is printed once the runtime is up, on stdout (a pipe), while startVigil returned on the health answer
  // (a socket): the pipe's bytes may not have been read yet.
  const m = await waitFor(() => /\?token=([A-Za-z0-9_-]+)/.exec(vigil.stdout()), { timeoutMs: 10_000, what: 'the dashboard URL line' }).catch(() => null);
  assert.ok(m, `dashboard URL with token printed once; stdout: ${vigil.stdout()}`);
  token = m![1];
});

example.after(async () => {
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

example('health answers without auth', async () => {
  const res = await fetch(`${base}/api/health`);
  assert.is(res.status, 200);
  assert.is(((await res.json()) as { status: string }).status, 'ok');
});

example('only the token hash is stored in the data directory', () => {
  const files = spawnSync('grep', ['-rl', token, join(work.path, '.vigil')], { encoding: 'utf8' });
  assert.is(files.stdout.trim(), '', 'plaintext token found on disk');
  assert.ok(existsSync(join(work.path, '.vigil')));
});

example('/metrics passes promtool and has process, bus, plugin and HTTP metrics', async () => {
  await fetch(`${base}/api/gateway/records`, { headers: { authorization: `Bearer ${token}` } });
  const text = await (await fetch(`${base}/metrics`)).text();
  for (const name of ['process_resident_memory_bytes', 'vigil_bus_published_total', 'vigil_plugin_errors_total', 'vigil_control_plane_requests_total', 'vigil_capture_queue_bytes']) {
    assert.ok(text.includes(name), `missing ${name}`);
  }
  const check = promtoolCheck(text);
  if (check) assert.ok(check.ok, `promtool: ${check.output}`);
});

example('the printed link opens the dashboard, with the gateway area set up', async () => {
  const login = await fetch(`${base}/?token=${token}`, { redirect: 'manual' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const page = await fetch(`${base}/`, { headers: { cookie } });
  assert.is(page.status, 200);
  assert.match(await page.text(), /<script type="module" src="\/assets\/main-/);
  const shell = await (await fetch(`${base}/api/ui/shell`, { headers: { cookie } })).json() as { areas: { id: string; configured: boolean }[] };
  assert.equal(shell.areas.find((a) => a.id === 'gateway'), { id: 'gateway', configured: true });
});

example('/api is an OpenAPI document listing the gateway\'s routes', async () => {
  const res = await fetch(`${base}/api`, { headers: { authorization: `Bearer ${token}` } });
  assert.is(res.status, 200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, { get?: unknown }> };
  assert.match(doc.openapi, /^3\.1/);
  assert.ok(doc.paths['/api/gateway/records']?.get, 'records route listed');
});

example('the gateway\'s routes need the token: 401 without, 200 with bearer, 200 with the cookie from /?token=', async () => {
  assert.is((await fetch(`${base}/api/gateway/records`)).status, 401);
  const bearer = await fetch(`${base}/api/gateway/records?limit=5`, { headers: { authorization: `Bearer ${token}` } });
  assert.is(bearer.status, 200);
  assert.equal(((await bearer.json()) as { data: unknown[] }).data, []);

  const login = await fetch(`${base}/?token=${token}`, { redirect: 'manual' });
  assert.is(login.status, 302);
  assert.is(login.headers.get('location')?.includes(token), false);
  const cookie = login.headers.get('set-cookie') ?? '';
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Strict/i);
  assert.is(cookie.includes(token), false, 'the cookie must not hold the token');
  const viaCookie = await fetch(`${base}/api/gateway/records`, { headers: { cookie: cookie.split(';')[0] } });
  assert.is(viaCookie.status, 200);
});

example('twenty <img>-style wrong tokens from a page do not lock out the token; a cross-site token is no login', async () => {
  for (let i = 0; i < 20; i++) {
    const health = await fetch(`${base}/api/health?token=x`, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' } });
    assert.is(health.status, 400);
    const entry = await fetch(`${base}/?token=x`, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' }, redirect: 'manual' });
    assert.is(entry.status, 403);
  }
  const crossSiteLogin = await fetch(`${base}/?token=${token}`, { headers: { 'sec-fetch-site': 'cross-site' }, redirect: 'manual' });
  assert.is(crossSiteLogin.status, 403);
  assert.is(crossSiteLogin.headers.get('set-cookie'), null);
  const res = await fetch(`${base}/api/gateway/records`, { headers: { authorization: `Bearer ${token}` } });
  assert.is(res.status, 200);
});

example('25 bad tokens in a row from one address get 429', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 25; i++) {
    statuses.push((await fetch(`${base}/api/gateway/records`, { headers: { authorization: 'Bearer wrong' } })).status);
  }
  assert.is(statuses[0], 401);
  assert.is(statuses[24], 429);
  const locked = await fetch(`${base}/api/gateway/records`, { headers: { authorization: `Bearer ${token}` } });
  assert.is(locked.status, 429, 'a locked-out address is refused even with the right token');
  assert.ok(Number(locked.headers.get('retry-after')) > 0);
});

example('a later start prints where the dashboard is, never a token (its hash is all that was kept)', async () => {
  const port = await freePort();
  const again = await startVigil(fromRoot('examples/vigil.yaml'), `http://127.0.0.1:${port}`, { cwd: work.path, env: { VIGIL_LISTEN: `127.0.0.1:${port}`, VIGIL_TOKEN: '' } });
  try {
    await waitFor(() => again.stdout().includes('Dashboard:'), { what: 'the dashboard line' }).catch(() => undefined);
    assert.match(again.stdout(), `Dashboard: http://127.0.0.1:${port}/ (sign in with the dashboard token`);
    assert.not.match(again.stdout(), /\?token=/);
  } finally {
    await again.stop('SIGKILL');
  }
});

example('SIGTERM stops the process with exit code 0 within 5 s', async () => {
  const t0 = Date.now();
  const { code } = await vigil.stop('SIGTERM');
  assert.is(code, 0);
  assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
});

example.run();
