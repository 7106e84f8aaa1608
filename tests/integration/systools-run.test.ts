// The system tools in a real `vigil run`: the crontab of a user made here (useradd, removed after) edited through
// the API against the real `crontab` binary, every other line kept byte for byte; an ed25519 key generated with a
// passphrase through the API verifies with ssh-keygen, and the passphrase is in no answer, log or file of Vigil's;
// services and timers say when systemd does not run the machine, and a system unit's action goes through the
// privileged helper's systemctl-unit verb into the audit log.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'systools-run-dashboard-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const work = tempDir('vigil-systools-run-');
const USER = `vgcron${randomBytes(3).toString('hex')}`;
const PASSPHRASE = `pass-${randomBytes(12).toString('base64url')}`;
const home = join(work.path, 'home');
const fakeRoot = join(work.path, 'root');
/** Whether systemd runs this machine (it does not on the test machine; the tests say what they check in each case). */
const systemdHere = existsSync('/run/systemd/system');

let vigil: VigilProcess | undefined;
let base = '';
const answers: string[] = [];

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  answers.push(text);
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const crontabOf = () => execFileSync('crontab', ['-u', USER, '-l'], { encoding: 'utf8' });

/** A crontab as people keep them: comments, variables, odd spacing, blank lines, a disabled entry. */
const TABLE = [
  '# backups -- keep this header',
  'MAILTO="ops@example.com"',
  'SHELL=/bin/bash',
  '',
  '  # indented note',
  '0 3 * * 1-5\t/usr/local/bin/backup --all   # trailing',
  '#*/5 * * * * /usr/bin/poll',
  '',
  '@reboot sleep 30',
  '',
].join('\n');

test.before(async () => {
  assert.is(process.getuid?.(), 0, 'these tests make a user and edit its crontab with crontab -u: run them as root (CI does)');
  execFileSync('useradd', ['-M', '-s', '/usr/sbin/nologin', USER]);
  mkdirSync(home);
  // A root where run/systemd/system exists: systemctl itself then answers for this machine, whatever it is.
  mkdirSync(join(fakeRoot, 'run/systemd/system'), { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  vigil = await startVigil(writeConfig(work.path, `data_dir: ${work.path}/data
log: { level: debug }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
privilege: {}
systools: { home: ${JSON.stringify(home)}, crontab_user: ${USER} }
plugins: []
`), base);
});

test.after(async () => {
  await vigil?.stop();
  spawnSync('crontab', ['-u', USER, '-r']);
  spawnSync('userdel', [USER]);
  work.cleanup();
});

test('a user without a crontab has an empty one; the first entry added creates it', async () => {
  const empty = await call('GET', '/api/cron');
  assert.is(empty.status, 200);
  assert.equal({ available: empty.body.available, user: empty.body.user, lines: empty.body.lines }, { available: true, user: USER, lines: [] });
  const added = await call('POST', '/api/cronsave', { revision: empty.body.revision, op: 'add', schedule: '*/10 * * * *', command: 'date >> /tmp/x' });
  assert.is(added.status, 200, JSON.stringify(added.body));
  assert.is(crontabOf(), '*/10 * * * * date >> /tmp/x\n');
  assert.is(added.body.lines[0].human, 'every 10 minutes');
});

test('edits through the API change one line of the real crontab; comments, variables and spacing stay byte for byte', async () => {
  execFileSync('crontab', ['-u', USER, '-'], { input: TABLE });
  assert.is(crontabOf(), TABLE);
  let view = await call('GET', '/api/cron');
  const entries = view.body.lines.filter((l: { kind: string }) => l.kind === 'entry');
  assert.equal(entries.map((e: { line: number; enabled: boolean; human: string }) => [e.line, e.enabled, e.human]), [
    [5, true, 'every weekday at 03:00'], [6, false, 'every 5 minutes'], [8, true, 'once, when cron starts (at boot)'],
  ]);
  const lines = TABLE.split('\n');
  const expectLines = async (op: object, expected: string[]) => {
    const r = await call('POST', '/api/cronsave', { revision: view.body.revision, ...op });
    assert.is(r.status, 200, JSON.stringify(r.body));
    assert.is(crontabOf(), expected.join('\n'));
    view = r;
  };
  lines[5] = `# ${lines[5]}`;
  await expectLines({ op: 'disable', line: 5 }, lines);
  lines[5] = lines[5].slice(2);
  await expectLines({ op: 'enable', line: 5 }, lines);
  assert.is(crontabOf(), TABLE, 'disable then enable gives the very table back');
  lines[8] = '15 4 * * sun /usr/bin/weekly';
  await expectLines({ op: 'edit', line: 8, schedule: '15 4 * * sun', command: '/usr/bin/weekly' }, lines);
  assert.is(view.body.lines[8].human, 'every Sunday at 04:15');
  lines.splice(6, 1);
  await expectLines({ op: 'delete', line: 6 }, lines);
  lines.splice(lines.length - 1, 0, '0 0 1 * * /usr/bin/monthly');
  await expectLines({ op: 'add', schedule: '0 0 1 * *', command: '/usr/bin/monthly' }, lines);
});

test('a bad schedule, a stale revision and a line that is not an entry are refused, and the crontab stays as it was', async () => {
  const view = await call('GET', '/api/cron');
  const before = crontabOf();
  const bad = await call('POST', '/api/cronsave', { revision: view.body.revision, op: 'add', schedule: '0 25 * * *', command: 'x' });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.code, 'VIGIL_ERR_SYSTOOLS_CRON_SCHEDULE');
  assert.match(bad.body.error.message, /hour field has 25: it must be from 0 to 23/);
  // Changed behind the page's back (in a terminal): the page's edit does not overwrite it.
  execFileSync('crontab', ['-u', USER, '-'], { input: `${before}# added in a terminal\n` });
  const stale = await call('POST', '/api/cronsave', { revision: view.body.revision, op: 'delete', line: 5 });
  assert.is(stale.status, 409);
  assert.is(stale.body.error.code, 'VIGIL_ERR_SYSTOOLS_CRON_CHANGED');
  assert.is(crontabOf(), `${before}# added in a terminal\n`);
  const fresh = await call('GET', '/api/cron');
  const notEntry = await call('POST', '/api/cronsave', { revision: fresh.body.revision, op: 'delete', line: 1 });
  assert.is(notEntry.status, 400);
  assert.is(notEntry.body.error.code, 'VIGIL_ERR_SYSTOOLS_CRON_LINE');
  const reading = await call('GET', `/api/cronschedule?schedule=${encodeURIComponent('30 9 * * mon,fri')}`);
  assert.equal(reading.body, { valid: true, schedule: '30 9 * * mon,fri', human: 'every Monday and Friday at 09:30', error: null });
  const wrong = await call('GET', `/api/cronschedule?schedule=${encodeURIComponent('* * *')}`);
  assert.is(wrong.body.valid, false);
  assert.match(wrong.body.error, /five fields/);
});

test('a key generated with a passphrase verifies with ssh-keygen; the passphrase is in no answer, log or file of Vigil\'s', async () => {
  const r = await call('POST', '/api/sshkeygen', { name: 'id_work', comment: 'work laptop', passphrase: PASSPHRASE });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const file = join(home, '.ssh/id_work');
  assert.is(r.body.key.keygen_line, execFileSync('ssh-keygen', ['-lf', `${file}.pub`], { encoding: 'utf8' }).trim());
  assert.is(r.body.key.encrypted, true);
  const pub = readFileSync(`${file}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
  assert.is(execFileSync('ssh-keygen', ['-y', '-P', PASSPHRASE, '-f', file], { encoding: 'utf8' }).split(' ').slice(0, 2).join(' '), pub);
  assert.is(statSync(join(home, '.ssh')).mode & 0o777, 0o700);
  const again = await call('POST', '/api/sshkeygen', { name: 'id_work', passphrase: '' });
  assert.is(again.status, 409);
  const list = await call('GET', '/api/sshkeys');
  assert.equal(list.body.keys.map((k: { name: string }) => k.name), ['id_work']);
  assert.not.ok(JSON.stringify(list.body).includes(readFileSync(file, 'utf8').split('\n')[2]), 'no line of the private key is answered');
  // Nowhere the passphrase could leak: answers, Vigil's output, its data directory (the store with the audit log).
  const leaks = [...answers, vigil!.stdout(), vigil!.stderr()].filter((t) => t.includes(PASSPHRASE));
  assert.is(leaks.length, 0, 'the passphrase appears in an answer or a log');
  for (const f of readdirSync(join(work.path, 'data'), { recursive: true }) as string[]) {
    const p = join(work.path, 'data', f);
    if (statSync(p).isFile()) assert.not.ok(readFileSync(p).includes(PASSPHRASE), `the passphrase is in ${f}`);
  }
});

test('services and timers: where systemd does not run, the answer says so and runs nothing', async () => {
  const services = await call('GET', '/api/services');
  const timers = await call('GET', '/api/timers');
  assert.is(services.status, 200);
  assert.is(services.body.systemd.running, systemdHere);
  assert.is(timers.body.systemd.running, systemdHere);
  if (systemdHere) {
    assert.ok(services.body.units.length > 0, 'a systemd machine has services');
    assert.ok(services.body.units.every((u: { unit: string }) => u.unit.endsWith('.service')));
  } else {
    assert.match(services.body.systemd.note, /systemd is not the init system here/);
    assert.equal(services.body.units, []);
    const act = await call('POST', '/api/serviceaction', { scope: 'user', unit: 'cron.service', action: 'restart' });
    assert.is(act.status, 503);
    assert.is(act.body.error.code, 'VIGIL_ERR_SYSTOOLS_NO_SYSTEMD');
  }
  assert.is(services.body.elevation.system_actions, 'helper');
  const badName = await call('POST', '/api/serviceaction', { scope: 'system', unit: '--root=/tmp.service', action: 'start' });
  assert.is(badName.status, 400);
  assert.is(badName.body.error.code, 'VIGIL_ERR_SYSTOOLS_UNIT_NAME');
  const badTimer = await call('POST', '/api/timeraction', { scope: 'system', unit: 'cron.service', action: 'start' });
  assert.is(badTimer.status, 400);
});

test('a system unit\'s action runs the real systemctl through the privileged helper, and is audited', async () => {
  // A second Vigil whose root has run/systemd/system: the real systemctl runs (and fails on a missing unit).
  const port = await freePort();
  const other = `http://127.0.0.1:${port}`;
  const dir = join(work.path, 'fake');
  mkdirSync(dir);
  const v = await startVigil(writeConfig(dir, `data_dir: ${dir}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
privilege: {}
systools: { home: ${JSON.stringify(home)}, root: ${JSON.stringify(fakeRoot)} }
`), other);
  try {
    const post = (path: string, body: object) => fetch(`${other}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() as any }));
    const unit = `vigil-test-${randomBytes(3).toString('hex')}.service`;
    const act = await post('/api/serviceaction', { scope: 'system', unit, action: 'restart' });
    assert.is(act.status, 502);
    assert.is(act.body.error.code, 'VIGIL_ERR_SYSTOOLS_SYSTEMCTL');
    // What systemctl said: no systemd here, or no such unit where there is one.
    assert.match(act.body.error.message, systemdHere ? /not found|not loaded/i : /not been booted with systemd|Failed to connect to bus/i);
    const user = await post('/api/serviceaction', { scope: 'user', unit, action: 'stop' });
    assert.is(user.status, 502);
    const listed = await fetch(`${other}/api/services`, { headers }).then((r) => r.json() as Promise<any>);
    assert.is(listed.systemd.running, true);
    if (!systemdHere) assert.match(listed.error, /not been booted with systemd|Failed to connect to bus/i);
    const audit = await fetch(`${other}/api/audit?limit=50`, { headers }).then((r) => r.json() as Promise<any>);
    const host = (audit.entries as { action: string; target: string; status: number }[]).filter((e) => e.action.startsWith('host '));
    assert.ok(host.some((e) => e.action === 'host systemctl-unit' && e.target === `restart ${unit}` && e.status === 500), JSON.stringify(host));
    assert.ok(host.some((e) => e.action === 'host user-unit stop' && e.target === unit && e.status === 500), JSON.stringify(host));
  } finally {
    await v.stop();
  }
});

test('crontab edits and key generation are in the audit log', async () => {
  const audit = await call('GET', '/api/audit?limit=100');
  const actions = (audit.body.entries as { action: string; status: number }[]).map((e) => `${e.action} ${e.status}`);
  for (const a of ['host crontab add 200', 'host crontab disable 200', 'host crontab edit 200', 'host crontab delete 200', 'host ssh-keygen 200']) {
    assert.ok(actions.includes(a), `${a} in ${actions.join(', ')}`);
  }
});

test.run();
