// Self-update in a real `vigil run` that is itself a git checkout: a small repository (package.json, bin/vigil.js)
// whose upstream is a local bare repository, with the built dist/ beside it (ignored, as in the project's own
// checkouts). Nothing reaches the release feed until Check is pressed; owners only; Update now fast-forwards to the
// signed tag; Restart starts the new process detached, and it answers on the same port with the new version.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asUser, logInAs, makeUser } from '../support/dashboard-users.js';
import { freePort, waitFor } from '../support/net.js';
import { repoRoot, vigilBin } from '../support/paths.js';
import { git, ReleaseUpstream } from '../support/release-upstream.js';
import { tempDir } from '../support/tmp.js';
import { writeConfig } from '../support/vigil-process.js';

const TOKEN = 'selfupdate-run-dashboard-token-0123';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const work = tempDir('vigil-selfupdate-run-');
const upstream = new ReleaseUpstream(work.path, {
  'package.json': `${JSON.stringify({ name: 'vigil', version: '0.1.0', type: 'module' })}\n`,
  'bin/vigil.js': readFileSync(vigilBin, 'utf8'),
  '.gitignore': 'dist/\nnode_modules/\n',
  'README.md': 'v1\n',
});
const install = join(work.path, 'vigil');
const dataDir = join(work.path, 'data');
let base = '';
let feed = '';
/** Connections the release feed accepted: none may come before Check is pressed. */
let feedConnections = 0;
let output = '';
let firstExit: Promise<number | null> | undefined;
let first: import('node:child_process').ChildProcess | undefined;
let viewerCookie = '';

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function auditEntries(): Promise<{ action: string; status: number; detail: string | null; actor: string }[]> {
  return (await call('GET', '/api/audit?limit=100')).body.entries;
}

/** The relaunched process's pid (it is not our child), from the relauncher's state file. */
function relaunchedPid(): number | null {
  try { return (JSON.parse(readFileSync(join(dataDir, 'plugins/selfupdate/restart.json'), 'utf8')) as { pid: number }).pid; } catch { return null; }
}

test.before(async () => {
  upstream.clone(install);
  // The checkout runs the tree's built code: dist/ copied in (ignored by git), the dependencies linked.
  cpSync(join(repoRoot, 'dist'), join(install, 'dist'), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(install, 'node_modules'));
  upstream.write('package.json', `${JSON.stringify({ name: 'vigil', version: '0.2.0', type: 'module' })}\n`);
  upstream.write('README.md', 'v2\n');
  upstream.commit('release 0.2.0', 'v0.2.0');
  upstream.publish('0.2.0', '## 0.2.0\n- Self-update');
  feed = await upstream.serve();
  (upstream as unknown as { server: import('node:http').Server }).server.on('connection', () => { feedConnections++; });

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = writeConfig(work.path, `data_dir: ${dataDir}
log: { level: info }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
ui: {}
selfupdate: { release_url: ${JSON.stringify(`${feed}/latest.json`)}, public_key: ${JSON.stringify(upstream.keyFile)}, step_timeout: 2m }
plugins: []
`);
  const proc = first = spawn(process.execPath, [join(install, 'bin/vigil.js'), 'run', '-config', config], { cwd: work.path, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout.on('data', (d) => { output += d; });
  proc.stderr.on('data', (d) => { output += d; });
  firstExit = new Promise((resolve) => proc.on('close', (code) => resolve(code)));
  await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => undefined))?.status === 200, { timeoutMs: 60_000, what: `vigil at ${base}:\n${output}` });
  const viewer = await makeUser(base, TOKEN, { email: 'viewer@example.com', source: 'local', instance_role: 'viewer' });
  viewerCookie = await logInAs(base, viewer.email, viewer.password!) as string;
});

test.after(async () => {
  // The first process, if a test failed before it restarted; then the one the relauncher started.
  if (first && first.exitCode === null && first.signalCode === null) { first.kill('SIGTERM'); await firstExit; }
  const pid = relaunchedPid();
  if (pid) try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
  await upstream.close();
  work.cleanup();
});

test('the status reads the checkout only: install method, running version and commit, no request to the feed', async () => {
  const s = await call('GET', '/api/perchupdate');
  assert.is(s.status, 200, JSON.stringify(s.body));
  assert.is(s.body.install_method, 'git checkout');
  assert.equal(s.body.running, { version: '0.1.0', commit: git(install, 'rev-parse', 'HEAD') });
  assert.equal({ branch: s.body.checkout.branch, upstream: s.body.checkout.upstream, refusal: s.body.checkout.refusal }, { branch: 'main', upstream: 'origin/main', refusal: null });
  assert.is(s.body.latest, null);
  assert.is(s.body.can_update, true);
  const about = await call('GET', '/api/ui/about');
  assert.is(about.body.install_method, 'git checkout');
  assert.is(about.body.version, '0.1.0');
  // Started, read twice, signed in: the feed was never contacted.
  assert.is(feedConnections, 0);
  assert.equal(upstream.seen, []);
});

test('the update endpoints are for owners: a viewer is refused each, and nothing is fetched', async () => {
  for (const [method, path] of [['GET', '/api/perchupdate'], ['POST', '/api/perchupdate'], ['POST', '/api/perchrestart']] as const) {
    const res = await asUser(base, viewerCookie, path, { method, ...(method === 'POST' ? { body: JSON.stringify({ action: 'check' }) } : {}) });
    assert.is(res.status, 403, `${method} ${path}`);
    await res.body?.cancel();
  }
  const anonymous = await fetch(`${base}/api/perchupdate`);
  assert.is(anonymous.status, 401);
  assert.is(feedConnections, 0);
});

test('Check asks the feed once and shows the newest release with its notes', async () => {
  const r = await call('POST', '/api/perchupdate', { action: 'check' });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal({ version: r.body.latest.release.version, notes: r.body.latest.release.notes, newer: r.body.latest.newer }, { version: '0.2.0', notes: '## 0.2.0\n- Self-update', newer: true });
  assert.equal(upstream.seen, ['GET /latest.json']);
  const entry = (await auditEntries()).find((e) => e.action === 'POST /api/perchupdate');
  assert.match(entry?.detail ?? '', /checked http:\/\/127\.0\.0\.1:\d+\/latest\.json: newest 0\.2\.0/);
  const bad = await call('POST', '/api/perchupdate', { action: 'merge' });
  assert.is(bad.status, 400);
});

test('Update now refuses a checkout with uncommitted changes, with the reason, and audits the refusal', async () => {
  writeFileSync(join(install, 'README.md'), 'edited here\n');
  const head = git(install, 'rev-parse', 'HEAD');
  const r = await call('POST', '/api/perchupdate', { action: 'update' });
  assert.is(r.status, 409);
  assert.is(r.body.error.code, 'VIGIL_ERR_SELFUPDATE_REFUSED');
  assert.match(r.body.error.message, /uncommitted changes \(README\.md\): commit or stash them/);
  assert.is(git(install, 'rev-parse', 'HEAD'), head);
  const entry = await waitFor(async () => (await auditEntries()).find((e) => e.action === 'POST /api/perchupdate' && e.status === 409), { what: 'the refusal in the audit log' });
  assert.match(entry!.detail ?? '', /^refused: .*uncommitted changes/);
  git(install, 'checkout', '--', 'README.md');
});

test('Update now fast-forwards to the signed tag as a job; the running version stays until the restart', async () => {
  const r = await call('POST', '/api/perchupdate', { action: 'update' });
  assert.is(r.status, 202, JSON.stringify(r.body));
  const done = await waitFor(async () => {
    const s = await call('GET', '/api/perchupdate');
    return s.body.update?.state !== 'running' ? s.body : undefined;
  }, { timeoutMs: 120_000, what: 'the update to end' });
  assert.is(done.update.state, 'done', done.update.lines.join('\n'));
  assert.is(done.update.outcome.result, 'updated');
  assert.is(git(install, 'rev-parse', 'HEAD'), git(upstream.publisher, 'rev-parse', 'v0.2.0^{commit}'));
  assert.is(done.installed_version, '0.2.0');
  assert.is(done.running.version, '0.1.0');
  assert.ok(done.update.lines.some((l: string) => /^ok\s+signature of SHA256SUMS/.test(l)));
  const entry = await waitFor(async () => (await auditEntries()).find((e) => e.action === 'selfupdate update'), { what: 'the update in the audit log' });
  assert.is(entry!.status, 200);
  assert.match(entry!.detail ?? '', /Fast-forwarded main from [0-9a-f]{12} to v0\.2\.0/);
});

test('Restart starts the new version detached: the old process exits, the new one answers on the same port', async () => {
  const r = await call('POST', '/api/perchrestart', {});
  assert.is(r.status, 202, JSON.stringify(r.body));
  assert.is(r.body.method, 'detached');
  const oldPid = r.body.pid as number;
  assert.is(await firstExit, 0, 'the old process drained and exited');
  const about = await waitFor(async () => {
    const res = await fetch(`${base}/api/ui/about`, { headers }).catch(() => undefined);
    return res?.status === 200 ? await res.json() as { version: string } : undefined;
  }, { timeoutMs: 120_000, intervalMs: 250, what: `the restarted vigil at ${base}` });
  assert.is(about!.version, '0.2.0');
  const pid = relaunchedPid();
  assert.ok(pid && pid !== oldPid, 'a new process answers');
  const s = await call('GET', '/api/perchupdate');
  assert.equal(s.body.running, { version: '0.2.0', commit: git(install, 'rev-parse', 'HEAD') });
  // The restart is audited, and the log (in the data directory) outlives the process that wrote it.
  const entry = (await auditEntries()).find((e) => e.action === 'POST /api/perchrestart');
  assert.is(entry?.status, 202);
  assert.match(entry?.detail ?? '', new RegExp(`restart \\(detached\\) of pid ${oldPid}, running 0\\.1\\.0, installed 0\\.2\\.0`));
});

test.run();
