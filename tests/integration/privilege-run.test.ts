// The privileged helper in real `vigil run` processes, called by name by a plugin (tests/fixtures/privilege-caller)
// as the host tabs call it. As root it runs verbs directly. As an unprivileged user made here (useradd, a sudoers.d
// file written here and removed after), sudo needs the session's password: none is refused, a wrong one is refused, the
// right one runs the verb (a signal to a root-owned process that user could not signal itself), and the password is
// in no log, no stored file and no answer. Arguments outside a verb's form are refused before anything runs, and every
// run and refusal is in the audit log.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { freePort, waitFor } from '../support/net.js';
import { fixture } from '../support/paths.js';
import { makeSudoUser, startVigilAs, type SudoUser, type UserVigil } from '../support/sudo-user.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'privilege-run-dashboard-token-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const work = tempDir('vigil-privilege-run-');
const WRONG = `Wrong-${randomBytes(9).toString('base64url')}`;
let user: SudoUser | undefined;
let USER = '';
let PASSWORD = '';

const asRoot = process.getuid?.() === 0;
let rootVigil: VigilProcess | undefined;
let userVigil: UserVigil | undefined;
let rootBase = '';
let userBase = '';
const sleepers: ChildProcess[] = [];
/** Every answer body the tests received, to look for the password in. */
const answers: string[] = [];

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, { method, headers: bearer, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  answers.push(text);
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const privileged = (base: string, verb: string, args: string[]) => call(base, 'POST', '/api/test/privileged', { verb, args });

function sleeper(): ChildProcess {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  sleepers.push(child);
  return child;
}
const startTime = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};
const alive = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

const config = (dir: string, port: number) => `data_dir: ${dir}/data
log: { level: debug }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
privilege: {}
plugins:
  - use: ${fixture('privilege-caller')}
`;

test.before(async () => {
  assert.ok(asRoot, 'these tests make a user and a sudoers file: run them as root (CI does)');
  const port = await freePort();
  rootBase = `http://127.0.0.1:${port}`;
  const rootDir = join(work.path, 'root');
  execFileSync('mkdir', ['-p', rootDir]);
  rootVigil = await startVigil(writeConfig(rootDir, config(rootDir, port)), rootBase);

  // The unprivileged user: no home, no login shell, a password, and sudo rights from a file this test removes.
  user = makeSudoUser();
  USER = user.name;
  PASSWORD = user.password;
  const userDir = join(work.path, 'user');
  execFileSync('mkdir', ['-p', userDir]);
  user.own(userDir);
  chmodSync(work.path, 0o755);
  const userPort = await freePort();
  userBase = `http://127.0.0.1:${userPort}`;
  const file = writeConfig(userDir, config(userDir, userPort));
  user.own(file);
  userVigil = await startVigilAs(user, file, userDir, userBase);
});

test.after(async () => {
  for (const s of sleepers) if (alive(s)) s.kill('SIGKILL');
  await rootVigil?.stop();
  await userVigil?.stop();
  user?.remove();
  work.cleanup();
});

test('as root: direct, no password; kill signals the exact process and refuses one whose start time changed', async () => {
  const status = await call(rootBase, 'GET', '/api/privilege');
  assert.is(status.status, 200);
  assert.equal({ method: status.body.method, password_needed: status.body.password_needed }, { method: 'root', password_needed: false });

  const target = sleeper();
  const other = sleeper();
  const stale = await privileged(rootBase, 'kill', [String(other.pid), 'TERM', String(Number(startTime(other.pid!)) + 1)]);
  assert.is(stale.status, 409, JSON.stringify(stale.body));
  assert.is(stale.body.error.code, 'VIGIL_ERR_PRIVILEGE_PROCESS_CHANGED');
  const done = await privileged(rootBase, 'kill', [String(target.pid), 'TERM', startTime(target.pid!)]);
  assert.is(done.status, 200, JSON.stringify(done.body));
  assert.equal({ ok: done.body.ok, method: done.body.method }, { ok: true, method: 'root' });
  await waitFor(() => !alive(target), { what: 'the signalled sleep to end' });
  assert.is(target.signalCode, 'SIGTERM');
  assert.ok(alive(other), 'the process whose start time did not match was not signalled');
});

test('arguments outside a verb\'s form are refused before anything runs, each with the reason', async () => {
  const victim = sleeper();
  const cases: [string, string[], RegExp][] = [
    ['kill', [`${victim.pid}; kill -9 1`, 'TERM'], /PID must be a whole number/],
    ['kill', ['1', 'TERM'], /from 2 to/],
    ['kill', [String(victim.pid), 'SEGV'], /signal must be one of/],
    ['package-upgrade', ['apt', 'curl; rm -rf /'], /is not a package name/],
    ['package-remove', ['apt', '--purge'], /is not a package name/],
    ['package-upgrade', ['brew', 'curl'], /package manager must be one of/],
    ['tcpdump-capture', ['lo', '10', '5', '../../etc/x.pcap'], /the file must be a name ending in .pcap/],
    ['tcpdump-capture', ['lo', '0', '5', 'a.pcap'], /packet count/],
    ['smartctl-health', ['/etc/shadow'], /is not a disk device/],
    ['firewall-rules', ['iptables; id'], /the tool must be one of/],
    ['sh', ['-c', 'id'], /is not a verb/],
  ];
  for (const [verb, args, reason] of cases) {
    const r = await privileged(rootBase, verb, args);
    assert.is(r.status, 400, `${verb} ${args.join(' ')}: ${JSON.stringify(r.body)}`);
    assert.is(r.body.error.code, 'VIGIL_ERR_PRIVILEGE_ARGUMENT');
    assert.match(r.body.error.message, reason);
  }
  assert.ok(alive(victim), 'no refused kill reached the process');
});

test('every run and refusal is in the audit log: who, what, when, how it ended', async () => {
  const page = await call(rootBase, 'GET', '/api/audit?limit=200');
  assert.is(page.status, 200);
  const host = (page.body.entries as { action: string; status: number; actor: string; target: string; detail: string; at: number }[])
    .filter((e) => e.action.startsWith('host '));
  const kills = host.filter((e) => e.action === 'host kill');
  assert.ok(kills.some((e) => e.status === 200 && /exit 0 via root/.test(e.detail)), JSON.stringify(kills));
  assert.ok(kills.some((e) => e.status === 409 && /refused: kill: process \d+ is another process now/.test(e.detail)));
  assert.ok(host.some((e) => e.action === 'host package-upgrade' && e.status === 400 && e.target === 'apt curl; rm -rf /'));
  const filtered = await call(rootBase, 'GET', '/api/audit?limit=200&action=host%20');
  assert.ok(filtered.body.entries.length >= 3 && filtered.body.entries.every((e: { action: string }) => e.action.startsWith('host ')), 'the action prefix filters on the server');
  assert.is(filtered.body.entries.length, host.length);
  for (const e of host) {
    assert.is(e.actor, 'dashboard token');
    assert.ok(Math.abs(Date.now() - e.at) < 600_000);
  }
});

test('as an unprivileged user: sudo wants the session\'s password; none and a wrong one are refused, the right one runs the verb', async () => {
  const status = await call(userBase, 'GET', '/api/privilege');
  assert.equal({ method: status.body.method, user: status.body.user, password_needed: status.body.password_needed, unlocked: status.body.unlocked },
    { method: 'sudo', user: USER, password_needed: true, unlocked: false });

  // A process of root's: the user cannot signal it without sudo.
  const target = sleeper();
  const locked = await privileged(userBase, 'kill', [String(target.pid), 'TERM']);
  assert.is(locked.status, 403);
  assert.is(locked.body.error.code, 'VIGIL_ERR_PRIVILEGE_PASSWORD_REQUIRED');

  const wrong = await call(userBase, 'POST', '/api/privilege/unlock', { password: WRONG });
  assert.is(wrong.status, 403, JSON.stringify(wrong.body));
  assert.is(wrong.body.error.code, 'VIGIL_ERR_PRIVILEGE_PASSWORD_WRONG');
  assert.ok(alive(target));

  const right = await call(userBase, 'POST', '/api/privilege/unlock', { password: PASSWORD });
  assert.is(right.status, 200, JSON.stringify(right.body));
  assert.equal({ unlocked: right.body.unlocked, password_needed: right.body.password_needed }, { unlocked: true, password_needed: false });
  assert.ok(Date.parse(right.body.expires_at) > Date.now());

  const bad = await privileged(userBase, 'kill', [String(target.pid), 'BOGUS']);
  assert.is(bad.status, 400, 'arguments are checked as the user too');
  const run = await privileged(userBase, 'kill', [String(target.pid), 'TERM', startTime(target.pid!)]);
  assert.is(run.status, 200, JSON.stringify(run.body));
  assert.equal({ ok: run.body.ok, method: run.body.method }, { ok: true, method: 'sudo' });
  await waitFor(() => !alive(target), { what: 'root\'s sleep to end by the user\'s sudo' });
  assert.is(target.signalCode, 'SIGTERM');

  const forgotten = await call(userBase, 'POST', '/api/privilege/lock', {});
  assert.equal({ unlocked: forgotten.body.unlocked, password_needed: forgotten.body.password_needed }, { unlocked: false, password_needed: true });
  const again = await privileged(userBase, 'kill', [String(sleeper().pid), 'TERM']);
  assert.is(again.status, 403, 'after lock the password is asked again');
});

/** `vigil_privilege_passwords_held` on /metrics. */
async function passwordsHeld(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: bearer })).text();
  const m = /^vigil_privilege_passwords_held (\S+)$/m.exec(text);
  assert.ok(m, 'the gauge is on /metrics');
  return Number(m![1]);
}

test('a session\'s password is dropped when the session ends (logout)', async () => {
  const login = await fetch(`${userBase}/login`, {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: TOKEN }).toString(),
  });
  await login.arrayBuffer();
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('vigil_session='))!.split(';')[0];
  const page = { cookie, origin: userBase, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };
  const before = await passwordsHeld(userBase);
  const unlock = await fetch(`${userBase}/api/privilege/unlock`, { method: 'POST', headers: page, body: JSON.stringify({ password: PASSWORD }) });
  answers.push(await unlock.text());
  assert.is(unlock.status, 200);
  assert.is(await passwordsHeld(userBase), before + 1);
  const out = await fetch(`${userBase}/logout`, { method: 'POST', redirect: 'manual', headers: page });
  await out.arrayBuffer();
  await waitFor(async () => (await passwordsHeld(userBase)) === before, { what: 'the password to be dropped at logout' });
});

test('the password is in no log, no stored file and no answer', async () => {
  await userVigil!.stop();
  const logs = userVigil!.output();
  assert.ok(logs.includes('privilege'), 'the log was captured');
  assert.not.ok(logs.includes(PASSWORD), 'not in the log');
  assert.not.ok(logs.includes(WRONG), 'nor the wrong one');
  for (const a of answers) assert.not.ok(a.includes(PASSWORD) || a.includes(WRONG), `not in an answer: ${a.slice(0, 200)}`);
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path); else files.push(path);
    }
  };
  walk(join(work.path, 'user'));
  assert.ok(files.some((f) => f.endsWith('.db') || f.includes('sqlite')), `the store is among the files: ${files.join(', ')}`);
  for (const f of files) {
    const bytes = readFileSync(f);
    assert.not.ok(bytes.includes(PASSWORD) || bytes.includes(WRONG), `not in ${f}`);
  }
});

test.run();
