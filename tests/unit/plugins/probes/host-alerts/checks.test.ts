// The custom rules' checks against real conditions this test makes: a port it opens then closes, a process it
// spawns then kills, a folder it fills, a backup file it ages with utimes; the unit check on a machine without
// systemd says so instead of guessing; the walk stops at its bounds and says it did.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { lookAtBackup } from '../../../../../plugins/probes/host-alerts/checks/backup-check.js';
import { CheckUnavailable } from '../../../../../plugins/probes/host-alerts/checks/check.js';
import { lookAtFolder } from '../../../../../plugins/probes/host-alerts/checks/folder-check.js';
import { listeningPorts, lookAtPort } from '../../../../../plugins/probes/host-alerts/checks/port-check.js';
import { countProcesses, lookAtProcess } from '../../../../../plugins/probes/host-alerts/checks/process-check.js';
import { lookAtUnit, systemdBooted } from '../../../../../plugins/probes/host-alerts/checks/unit-check.js';
import { walkTree } from '../../../../../plugins/probes/host-alerts/checks/walk-tree.js';
import { waitFor } from '../../../../support/net.js';
import { tempDir } from '../../../../support/tmp.js';

const work = tempDir('vigil-host-checks-');
/** The error a promise rejects with; fails when it resolves. */
async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new assert.Assertion({ message: 'expected a rejection', expects: 'rejection', actual: 'resolved', operator: 'rejects', generated: false });
}
test.after(() => work.cleanup());

test('port: 1 while a server listens (IPv4 and IPv6), 0 once it closed', async () => {
  for (const host of ['127.0.0.1', '::1']) {
    const server = createServer();
    await new Promise<void>((r, reject) => server.once('error', reject).listen(0, host, () => r()));
    const port = (server.address() as { port: number }).port;
    assert.ok((await listeningPorts('/')).has(port), `${host}:${port} is listed`);
    assert.equal(await lookAtPort('/', port), { value: 1, detail: `something listens on TCP port ${port}` });
    await new Promise<void>((r) => server.close(() => r()));
    assert.is((await lookAtPort('/', port)).value, 0, `${host}:${port} no longer listens`);
  }
});

test('process: counted by name while it runs, 0 once killed', async () => {
  // A copy of sleep under a name nothing else has: its comm is that name.
  const name = `vgl${process.pid}`.slice(0, 15);
  const program = join(work.path, name);
  copyFileSync('/bin/sleep', program);
  const child = spawn(program, ['600'], { stdio: 'ignore' });
  await waitFor(async () => (await countProcesses('/', name)).count === 1 || null, { timeoutMs: 5000, what: 'the process to show' });
  const look = await lookAtProcess('/', name.toUpperCase());
  assert.is(look.value, 1, 'the match ignores case');
  assert.match(look.detail, String(child.pid));
  child.kill('SIGKILL');
  await waitFor(async () => (await lookAtProcess('/', name)).value === 0 || null, { timeoutMs: 5000, what: 'the process to vanish' });
});

test('folder: the size of what it holds, in GB, walked without following links', async () => {
  const dir = join(work.path, 'grows');
  mkdirSync(join(dir, 'a/b'), { recursive: true });
  writeFileSync(join(dir, 'one'), Buffer.alloc(3_000_000));
  writeFileSync(join(dir, 'a/b/two'), Buffer.alloc(2_000_000));
  const before = await lookAtFolder('/', dir);
  assert.is(before.value, 0.005);
  assert.match(before.detail, '2 files');
  writeFileSync(join(dir, 'a/three'), Buffer.alloc(5_000_000));
  assert.is((await lookAtFolder('/', dir)).value, 0.01);
  const missing = await rejection(lookAtFolder('/', join(work.path, 'missing')));
  assert.ok(missing instanceof CheckUnavailable && /does not exist/.test(missing.message), missing.message);
});

test('walk bounds: a walk stopped by its entry bound says so and counts a lower bound', async () => {
  const dir = join(work.path, 'many');
  mkdirSync(dir);
  for (let i = 0; i < 50; i++) writeFileSync(join(dir, `f${i}`), Buffer.alloc(1000));
  const full = await walkTree(dir);
  assert.equal([full.files, full.bytes, full.complete], [50, 50_000, true]);
  const cut = await walkTree(dir, { maxEntries: 20, budgetMs: 5000, maxDepth: 8 });
  assert.is(cut.complete, false);
  assert.ok(cut.bytes < 50_000 && cut.bytes > 0, `a lower bound: ${cut.bytes}`);
  const shallow = await walkTree(join(work.path, 'grows'), { maxEntries: 1000, budgetMs: 5000, maxDepth: 0 });
  assert.is(shallow.complete, false, 'a folder below the depth bound is not walked');
});

test('backup: the age of the newest change under the path, in days', async () => {
  const dir = join(work.path, 'backups');
  mkdirSync(dir);
  const now = Date.now();
  const old = (days: number) => new Date(now - days * 86_400_000);
  writeFileSync(join(dir, 'monday.tar'), 'x');
  writeFileSync(join(dir, 'tuesday.tar'), 'x');
  utimesSync(join(dir, 'monday.tar'), old(10), old(10));
  utimesSync(join(dir, 'tuesday.tar'), old(9), old(9));
  utimesSync(dir, old(9.5), old(9.5));
  assert.is(Math.round((await lookAtBackup('/', dir, now)).value * 10) / 10, 9);
  assert.is(Math.round((await lookAtBackup('/', join(dir, 'monday.tar'), now)).value), 10, 'a file\'s own age');
  utimesSync(join(dir, 'tuesday.tar'), old(1), old(1));
  assert.is(Math.round((await lookAtBackup('/', dir, now)).value), 1);
});

test('unit: without systemd the check says it cannot look; a bad unit name is refused before any subprocess', async () => {
  const bad = await rejection(lookAtUnit('/', '--help', false));
  assert.ok(bad instanceof CheckUnavailable && /not a systemd unit name/.test(bad.message), bad.message);
  if (await systemdBooted('/')) {
    const look = await lookAtUnit('/', 'vigil-no-such-unit.service', false);
    assert.is(look.value, 0);
  } else {
    const none = await rejection(lookAtUnit('/', 'cron.service', false));
    assert.ok(none instanceof CheckUnavailable && /systemd does not run this machine/.test(none.message), none.message);
  }
  // A fixture root with systemd's marker: the check asks systemctl, which answers here or says why it cannot.
  const root = join(work.path, 'root');
  mkdirSync(join(root, 'run/systemd/system'), { recursive: true });
  assert.is(await systemdBooted(root), true);
});

test('unit: systemctl is asked without a shell, `--` before the name, --user for a user unit; its states read as 1 or 0', async () => {
  // This machine may have no systemd: a stand-in systemctl on PATH answers as the real one does (is-active prints
  // the state; exit 0 when active, 3 otherwise) and records its arguments.
  const root = join(work.path, 'systemd-root');
  mkdirSync(join(root, 'run/systemd/system'), { recursive: true });
  const bin = join(work.path, 'bin');
  mkdirSync(bin);
  const log = join(work.path, 'systemctl-args');
  writeFileSync(join(bin, 'systemctl'), `#!/bin/sh\necho "$@" >> ${log}\ncase "$*" in *stopped*) echo inactive; exit 3;; *failing*) echo failed; exit 3;; *) echo active;; esac\n`, { mode: 0o755 });
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path}`;
  try {
    assert.equal(await lookAtUnit(root, 'nginx.service', false), { value: 1, detail: 'unit nginx.service is active' });
    assert.equal(await lookAtUnit(root, 'stopped.service', false), { value: 0, detail: 'unit stopped.service is inactive' });
    assert.equal(await lookAtUnit(root, 'failing.timer', true), { value: 0, detail: 'user unit failing.timer is failed' });
    assert.equal(readFileSync(log, 'utf8').trim().split('\n'), ['is-active -- nginx.service', 'is-active -- stopped.service', '--user is-active -- failing.timer']);
  } finally {
    process.env.PATH = path;
  }
});

test.run();
