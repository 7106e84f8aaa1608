// The Packages tab against real apt and dpkg: the test builds two versions of a tiny package with dpkg-deb, serves
// the newer one from a folder as a `[trusted=yes] file:` source, and gives Vigil apt options that read only that source
// into lists of its own (the system's sources and lists are untouched). The list shows the package, Refresh then the
// only-updatable toggle find its update, Update installs 2.0 through the privileged helper (as root: direct) with its
// output followed live, Remove removes it, and filtering and the row cap are applied on the server.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'packages-apt-dashboard-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const work = tempDir('vigil-packages-apt-');
const suffix = randomBytes(4).toString('hex');
const PKG = `vigil-test-pkg-${suffix}`;
/** A word only the package's description holds, to find it by description. */
const DESCRIBED = `lighthouse${suffix}`;
let vigil: VigilProcess;
let base = '';

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** dpkg's view of the package: its version when installed, else null. */
function installedVersion(): string | null {
  const r = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Abbrev} ${Version}', PKG], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.startsWith('ii') ? r.stdout.split(' ').pop()!.trim() : null;
}

function buildDeb(version: string, kib: number): string {
  const root = join(work.path, `build-${version}`);
  mkdirSync(join(root, 'DEBIAN'), { recursive: true });
  mkdirSync(join(root, 'usr/share', PKG), { recursive: true });
  writeFileSync(join(root, 'usr/share', PKG, 'payload'), randomBytes(kib * 1024));
  writeFileSync(join(root, 'DEBIAN/control'), [
    `Package: ${PKG}`, `Version: ${version}`, 'Architecture: all', 'Maintainer: Vigil tests <tests@vigil.invalid>',
    `Installed-Size: ${kib + 4}`, 'Section: misc', 'Priority: optional', `Description: Vigil test package, the ${DESCRIBED} edition`,
    ' Made by tests/integration/packages-apt.test.ts and removed by it.', '',
  ].join('\n'));
  const deb = join(work.path, `${PKG}_${version}_all.deb`);
  execFileSync('dpkg-deb', ['--build', '--root-owner-group', root, deb], { stdio: 'ignore' });
  return deb;
}

/** dpkg with a retry while another dpkg holds its lock (tests on this machine may run apt too). */
function dpkg(args: string[]): void {
  let last = '';
  for (let i = 0; i < 60; i++) {
    const r = spawnSync('dpkg', args, { encoding: 'utf8' });
    if (r.status === 0) return;
    last = r.stderr;
    if (!/lock/i.test(r.stderr)) break;
    execFileSync('sleep', ['1']);
  }
  throw new Error(`dpkg ${args.join(' ')}: ${last}`);
}

/** Polls a job to its end the way the page does (`since` the last answer's `next`); every answer kept. */
async function follow(id: string): Promise<{ pages: any[]; lines: string[]; last: any }> {
  const pages: any[] = [];
  const lines: string[] = [];
  let since = 0;
  const last = await waitFor(async () => {
    const r = await call('GET', `/api/job?id=${id}&since=${since}`);
    assert.is(r.status, 200, JSON.stringify(r.body));
    assert.is(r.body.next, since + r.body.lines.length, 'next follows on from since');
    pages.push(r.body);
    lines.push(...r.body.lines);
    since = r.body.next;
    return r.body.state === 'running' ? undefined : r.body;
  }, { timeoutMs: 180_000, intervalMs: 100, what: `job ${id}` });
  return { pages, lines, last };
}

test.before(async () => {
  chmodSync(work.path, 0o755);
  buildDeb('1.0', 8);
  const v1 = join(work.path, `${PKG}_1.0_all.deb`);
  const repo = join(work.path, 'repo');
  mkdirSync(repo);
  execFileSync('mv', [buildDeb('2.0', 40), repo]);
  writeFileSync(join(repo, 'Packages'), execFileSync('dpkg-scanpackages', ['.', '/dev/null'], { cwd: repo, stdio: ['ignore', 'pipe', 'ignore'] }));
  for (const dir of ['parts', 'lists/partial', 'cache/archives/partial']) mkdirSync(join(work.path, dir), { recursive: true });
  writeFileSync(join(work.path, 'sources.list'), `deb [trusted=yes] file:${repo} ./\n`);
  dpkg(['-i', v1]);
  assert.is(installedVersion(), '1.0');

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const options = [`Dir::Etc::sourcelist=${work.path}/sources.list`, `Dir::Etc::sourceparts=${work.path}/parts`,
    `Dir::State::Lists=${work.path}/lists`, `Dir::Cache=${work.path}/cache`, 'APT::Get::List-Cleanup=0'];
  vigil = await startVigil(writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
privilege:
  apt_options: ${JSON.stringify(options)}
packages: {}
`), base);
});

test.after(async () => {
  await vigil?.stop();
  if (spawnSync('dpkg-query', ['-W', PKG]).status === 0) dpkg(['--purge', PKG]);
  work.cleanup();
});

test('the list shows the installed package with its version, size and description', async () => {
  const r = await call('GET', `/api/installed?q=${PKG}`);
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.manager, 'apt');
  assert.ok(r.body.managers.includes('apt'));
  assert.is(r.body.matched, 1);
  assert.equal(r.body.rows, [{ manager: 'apt', name: PKG, version: '1.0', new_version: null, size_bytes: 12 * 1024, description: `Vigil test package, the ${DESCRIBED} edition` }]);
});

test('filtering and the row cap are applied on the server', async () => {
  const byDescription = await call('GET', `/api/installed?q=${DESCRIBED.toUpperCase()}`);
  assert.equal(byDescription.body.rows.map((r: { name: string }) => r.name), [PKG], 'found by its description, in any case');
  const capped = await call('GET', '/api/installed?limit=5');
  assert.is(capped.body.rows.length, 5);
  assert.ok(capped.body.total > 5 && capped.body.matched === capped.body.total && capped.body.truncated);
  const names = capped.body.rows.map((r: { name: string }) => r.name);
  assert.equal(names, [...names].sort((a: string, b: string) => a.localeCompare(b)), 'sorted by name');
  const bySize = await call('GET', '/api/installed?sort=size&limit=50');
  const sizes = bySize.body.rows.map((r: { size_bytes: number | null }) => r.size_bytes ?? -1);
  assert.equal(sizes, [...sizes].sort((a: number, b: number) => b - a), 'largest first');
  assert.is((await call('GET', '/api/installed?limit=2001')).status, 400);
  assert.is((await call('GET', `/api/installed?q=${'x'.repeat(201)}`)).status, 400);
  assert.is((await call('GET', '/api/installed?mgr=pacman')).status, 400, 'a manager this machine does not have');
});

test('Refresh reads the local source; the only-updatable toggle then finds exactly the package with 2.0', async () => {
  const before = await call('GET', '/api/installed?updatable=true');
  assert.is(before.body.updatable, 0, 'nothing is updatable before the lists are read');
  const started = await call('POST', '/api/pkgrefresh', { mgr: 'apt' });
  assert.is(started.status, 202, JSON.stringify(started.body));
  const { last } = await follow(started.body.job);
  assert.is(last.state, 'done', JSON.stringify(last));
  const after = await call('GET', '/api/installed?updatable=true');
  assert.equal(after.body.rows.map((r: { name: string; new_version: string }) => [r.name, r.new_version]), [[PKG, '2.0']]);
  assert.is(after.body.updatable, 1);
  assert.is(after.body.updates_known, true);
});

test('refusals: a package that is not installed, a name outside the allowed form', async () => {
  const missing = await call('POST', '/api/pkginstall', { mgr: 'apt', pkg: `${PKG}-nope`, action: 'upgrade' });
  assert.is(missing.status, 404);
  assert.is(missing.body.error.code, 'VIGIL_ERR_PACKAGES_NOT_INSTALLED');
  const bad = await call('POST', '/api/pkginstall', { mgr: 'apt', pkg: '-oDebug::pkgProblemResolver=1', action: 'remove' });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.code, 'VIGIL_ERR_PRIVILEGE_ARGUMENT');
  assert.is(installedVersion(), '1.0');
});

test('Update installs 2.0 through the helper, its output followed live with apt\'s progress', async () => {
  const started = await call('POST', '/api/pkginstall', { mgr: 'apt', pkg: PKG, action: 'upgrade' });
  assert.is(started.status, 202, JSON.stringify(started.body));
  assert.is(started.body.title, `Update ${PKG}`);
  const { pages, lines, last } = await follow(started.body.job);
  assert.ok(pages[0].state === 'running', 'the first poll finds the job running: the page follows it live');
  assert.is(last.state, 'done', lines.join('\n'));
  assert.is(last.progress, 100);
  assert.equal({ ok: last.result.ok, exit_code: last.result.exit_code, method: last.result.method }, { ok: true, exit_code: 0, method: 'root' });
  assert.ok(lines.some((l) => l.includes(`Get:1 file:${work.path}/repo ./ ${PKG} 2.0`)), lines.join('\n'));
  assert.ok(lines.some((l) => l.startsWith(`pmstatus:${PKG}:`) && l.includes(`Unpacking ${PKG}`)), 'apt\'s progress lines are in the output');
  assert.is(installedVersion(), '2.0');
  const listed = await call('GET', `/api/installed?q=${PKG}`);
  assert.equal([listed.body.rows[0].version, listed.body.rows[0].new_version], ['2.0', null], 'the list is read again after the job');
});

test('Remove removes it, and both actions are in the audit log', async () => {
  const started = await call('POST', '/api/pkginstall', { mgr: 'apt', pkg: PKG, action: 'remove' });
  assert.is(started.status, 202);
  const { last, lines } = await follow(started.body.job);
  assert.is(last.state, 'done', lines.join('\n'));
  assert.is(installedVersion(), null);
  assert.is((await call('GET', `/api/installed?q=${PKG}`)).body.matched, 0);
  const audit = await call('GET', '/api/audit?limit=100');
  const host = audit.body.entries.filter((e: { action: string }) => e.action.startsWith('host package-'));
  for (const verb of ['package-upgrade', 'package-remove', 'package-refresh']) {
    assert.ok(host.some((e: { action: string; status: number; target: string }) => e.action === `host ${verb}` && e.status === 200 && e.target.startsWith('apt')), `${verb} audited: ${JSON.stringify(host)}`);
  }
  assert.ok(audit.body.entries.some((e: { action: string; status: number }) => e.action === 'POST /api/pkginstall' && e.status === 202), 'the request too');
});

test.run();
