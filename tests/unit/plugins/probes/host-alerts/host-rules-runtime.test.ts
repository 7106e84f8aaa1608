// Host rules in a real runtime (probes, alerts and channels on SQLite) with a local webhook receiver and a real SMTP
// server: each custom kind fires against a condition the test makes (a folder it fills, a backup it ages with
// utimes, a port it closes, a process it kills), and the notice arrives by webhook and by mail; a rule in cooldown
// records its firing and sends nothing; while alerting is stopped nothing fires; a built-in threshold fires from the
// minute sample; `/api/monitor?brief=1` stays small; the host digest previews and sends; the cap of 24 holds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { startReceivers, type Receivers } from '../../../../support/channel-receivers.js';
import { freePort, waitFor } from '../../../../support/net.js';
import { tempDir } from '../../../../support/tmp.js';

const work = tempDir('vigil-host-rules-');
const mails: ParsedMail[] = [];
const smtp = new SMTPServer({
  logger: false, authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'],
  onData(stream, _session, callback) { simpleParser(stream).then((m) => { mails.push(m); callback(); }, callback); },
});
let rt: TestRuntime;
let rx: Receivers;
let port = 0;
let server: Server | undefined;
let child: ChildProcess | undefined;
const processName = `vgh${process.pid}`.slice(0, 15);
const folder = join(work.path, 'downloads');
const backup = join(work.path, 'backup.tar');

const listen = async () => {
  server = createServer();
  await new Promise<void>((r) => server!.listen(port, '127.0.0.1', () => r()));
};

test.before(async () => {
  rx = await startReceivers();
  const smtpPort = await freePort();
  await new Promise<void>((r) => smtp.listen(smtpPort, '127.0.0.1', () => r()));
  port = await freePort();
  await listen();
  copyFileSync('/bin/sleep', join(work.path, processName));
  child = spawn(join(work.path, processName), ['600'], { stdio: 'ignore' });
  mkdirSync(folder);
  writeFileSync(join(folder, 'big.iso'), Buffer.alloc(3_000_000));
  writeFileSync(backup, 'last night');
  const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
  utimesSync(backup, tenDaysAgo, tenDaysAgo);
  rt = await startTestRuntime({
    plugins: [],
    config: {
      probes: {},
      channels: {
        backoff: '100ms',
        targets: [
          { id: 'hook', type: 'webhook', url: rx.url('/hook'), secret: 'webhook-secret-for-tests-0123' },
          { id: 'mail', type: 'email', host: '127.0.0.1', port: smtpPort, security: 'none', from: 'Vigil <alerts@example.com>', to: ['ops@example.com'] },
        ],
      },
      alerts: { interval: '1s', digests: { channels: ['hook'] } },
    },
  });
});

test.after(async () => {
  child?.kill('SIGKILL');
  server?.close();
  await rt?.stop();
  await rx?.close();
  await new Promise<void>((r) => smtp.close(() => r()));
  work.cleanup();
});

const call = async (path: string, init: RequestInit = {}) => {
  const res = await rt.fetch(path, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  return { status: res.status, text, bytes: Buffer.byteLength(text), body: text ? JSON.parse(text) : undefined };
};
const post = (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body) });
const notices = () => rx.received('/hook').map((r) => JSON.parse(r.raw.toString()) as Record<string, any>);
const noticesAbout = (name: string, title = 'Firing') => notices().filter((n) => JSON.stringify(n).includes(`[${title}] ${name}`));
const eventsOf = async (ruleId: string) => (await call(`/api/alerts/events?rule_id=${encodeURIComponent(ruleId)}`)).body.data as Record<string, any>[];

const rules = () => [
  { name: 'Web port', kind: 'port', target: String(port) },
  { name: 'Worker', kind: 'process', target: processName },
  { name: 'Downloads', kind: 'folder', target: folder, value: 0.002 },
  { name: 'Nightly backup', kind: 'backup', target: backup, value: 7 },
  { name: 'Database unit', kind: 'unit', target: 'vigil-test-db.service' },
];

test('the five built-ins start with perch\'s defaults; the brief answer is small', async () => {
  const brief = await call('/api/monitor?brief=1');
  assert.is(brief.status, 200, brief.text);
  assert.equal(Object.fromEntries(Object.entries(brief.body.builtins).map(([k, v]: [string, any]) => [k, [v.on, v.th, v.cooldown_ms]])), {
    cpu: [true, 90, 600_000], mem: [true, 95, 600_000], temp: [true, 85, 600_000], disk: [true, 90, 600_000], battery: [true, 15, 600_000],
  });
  assert.equal(brief.body.custom, []);
  assert.is(brief.body.alerting.state, 'on');
  assert.is(brief.body.history, undefined);
  assert.ok(brief.bytes < 4096, `brief is ${brief.bytes} bytes`);
});

test('each kind can be tested before saving: what it sees now', async () => {
  const seen = [];
  for (const rule of rules()) seen.push(await post('/api/customtest', { rule }));
  assert.equal(seen.map((s) => s.status), [200, 200, 200, 200, 200]);
  const [p, proc, dir, bak, unit] = seen.map((s) => s.body);
  assert.equal([p.ok, p.value, p.would_fire], [true, 1, false]);
  assert.equal([proc.ok, proc.value, proc.would_fire], [true, 1, false]);
  assert.equal([dir.ok, dir.value, dir.would_fire], [true, 0.003, true]);
  assert.match(dir.detail, '1 files');
  assert.equal([bak.ok, Math.round(bak.value), bak.would_fire], [true, 10, true]);
  assert.is(unit.ok, false, 'no systemd here, or an unknown unit: either way it says what it saw');
  assert.ok(unit.detail.length > 10);
  const bad = await post('/api/customtest', { rule: { name: 'x', kind: 'port', target: '70000' } });
  assert.is(bad.status, 400);
  assert.match(bad.text, 'rule.target');
});

test('saved rules fire against the folder and the backup at once, by webhook and by mail', async () => {
  const saved = await post('/api/customrules', { rules: rules() });
  assert.is(saved.status, 200, saved.text);
  assert.is(saved.body.rules.length, 5);
  await waitFor(() => (noticesAbout('Downloads').length && noticesAbout('Nightly backup').length) || null, { timeoutMs: 10_000, what: 'folder and backup notices' });
  // The two mails go out as two deliveries of the queue: either can arrive first.
  await waitFor(() => mails.some((m) => m.subject?.includes('Downloads')) || null, { timeoutMs: 10_000, what: 'the folder mail' });
  const mail = await waitFor(() => mails.find((m) => m.subject?.includes('Nightly backup')) || null, { timeoutMs: 10_000, what: 'the backup mail' });
  assert.match(mail!.text ?? '', '> 7');
  assert.is(noticesAbout('Web port').length + noticesAbout('Worker').length, 0, 'the port listens and the process runs');
  // The unit rule's check runs on the engine's tick, apart from the notices above: its status is read from the row
  // that shows the check ran (its error), not from a list read before that.
  const unit = (await waitFor(async () => {
    const row = ((await call('/api/customrules')).body.rules as Record<string, any>[]).find((r) => r.kind === 'unit')!;
    return row.last_error ? row : null;
  }, { timeoutMs: 5000, what: 'the unit rule\'s error' }))!;
  assert.is(unit.status, 'ok', 'a check that cannot look never fires');
});

test('while alerting is stopped nothing fires; once started the closed port and the killed process fire', async () => {
  assert.is((await post('/api/alertctl', { action: 'stop' })).body.state, 'stopped');
  server!.close();
  child!.kill('SIGKILL');
  await new Promise((r) => setTimeout(r, 2500));
  const ids = (await call('/api/customrules')).body.rules as Record<string, any>[];
  const portRule = ids.find((r) => r.kind === 'port')!.id;
  const processRule = ids.find((r) => r.kind === 'process')!.id;
  assert.equal([...(await eventsOf(portRule)), ...(await eventsOf(processRule))], [], 'no history while stopped');
  assert.is((await call('/api/monitor?brief=1')).body.alerting.state, 'stopped');
  await post('/api/alertctl', { action: 'start' });
  await waitFor(() => (noticesAbout('Web port').length && noticesAbout('Worker').length) || null, { timeoutMs: 10_000, what: 'port and process notices' });
});

test('cooldown: the port listens again (resolved), closes again: recorded as cooldown, not sent', async () => {
  const portRule = ((await call('/api/customrules')).body.rules as Record<string, any>[]).find((r) => r.kind === 'port')!.id;
  await listen();
  await waitFor(() => noticesAbout('Web port', 'Resolved').length || null, { timeoutMs: 10_000, what: 'the resolved notice' });
  server!.close();
  const second = await waitFor(async () => (await eventsOf(portRule)).find((e) => e.suppressed === 'cooldown') ?? null, { timeoutMs: 10_000, what: 'the event in cooldown' });
  assert.is(second!.status, 'firing');
  await new Promise((r) => setTimeout(r, 1500));
  assert.is(noticesAbout('Web port').length, 1, 'one firing notice within the cooldown');
});

test('a built-in fires from the minute sample: memory ≥ 1 % once its threshold is lowered', async () => {
  const set = await post('/api/monitor', { mem: { th: 1, cooldown_ms: 0 } });
  assert.is(set.status, 200, set.text);
  assert.equal([set.body.builtins.mem.th, set.body.builtins.mem.cooldown_ms, set.body.builtins.cpu.th], [1, 0, 90]);
  await waitFor(() => noticesAbout('Memory used').length || null, { timeoutMs: 10_000, what: 'the memory notice' });
  const full = await call('/api/monitor');
  assert.ok(full.body.history.t.length >= 1 && full.body.history.mem.length === full.body.history.t.length);
  assert.ok(full.body.latest.mem > 1);
  assert.is(full.body.builtins.mem.status, 'firing');
  assert.ok(full.body.recent.length >= 1 && full.body.firing >= 1);
  const brief = await call('/api/monitor?brief=1');
  assert.ok(brief.bytes < 8192 && brief.bytes < full.bytes, `brief ${brief.bytes} bytes, full ${full.bytes}`);
  assert.is((await post('/api/monitor', { cpu: { th: 101 } })).status, 400);
  assert.is((await post('/api/monitor', { cpu: { th: 90, label: 'x' } })).status, 400, 'unknown keys are refused');
});

test('host rules are managed by the host monitor: the alerts API answers 409 to a change', async () => {
  const put = await call('/api/alerts/rules/host.builtin.cpu', { method: 'PUT', body: JSON.stringify({ name: 'x', source: 'host.cpu_pct', condition: { type: 'gt', threshold: 1 } }) });
  assert.is(put.status, 409);
  assert.match(put.text, '/api/monitor');
  assert.is((await call('/api/alerts/rules/host.builtin.cpu', { method: 'DELETE' })).status, 409);
});

test('at most 24 custom rules; two rules watching the same thing are refused; saving again keeps each rule\'s state', async () => {
  const before = ((await call('/api/customrules')).body.rules as Record<string, any>[]).find((r) => r.kind === 'folder')!;
  const many = Array.from({ length: 25 }, (_, i) => ({ name: `p${i}`, kind: 'port', target: String(40000 + i) }));
  const tooMany = await post('/api/customrules', { rules: many });
  assert.is(tooMany.status, 400);
  assert.match(tooMany.text, 'at most 24');
  const twice = await post('/api/customrules', { rules: [rules()[0], { ...rules()[0], name: 'again' }] });
  assert.is(twice.status, 400);
  assert.match(twice.text, 'rules[1]');
  const again = await post('/api/customrules', { rules: rules() });
  const after = (again.body.rules as Record<string, any>[]).find((r) => r.kind === 'folder')!;
  assert.equal([after.id, after.status], [before.id, 'firing']);
  const concurrent = await Promise.all(Array.from({ length: 4 }, (_, k) => post('/api/customrules', { rules: many.slice(0, 20 + k) })));
  assert.equal(concurrent.map((c) => c.status), [200, 200, 200, 200]);
  assert.ok((await call('/api/customrules')).body.rules.length <= 24);
});

test('the host digest: sent weekly once to the digest channel, with a preview, and send-now sends it again', async () => {
  const digests = () => notices().filter((n) => String(n.event_id).startsWith('host:digest:'));
  // The hourly check runs at start: last week's digest went out to `hook`, once.
  const weekly = await waitFor(() => digests()[0] ?? null, { timeoutMs: 10_000, what: 'the weekly digest at the webhook' });
  assert.match(weekly.event_id, /^host:digest:\d{4}-\d{2}-\d{2}$/);
  assert.match(JSON.stringify(weekly), 'Weekly host digest');
  assert.is((await post('/api/customrules', { rules: rules() })).status, 200, 'the backup rule again');
  const preview = await call('/api/alerts/digests/host/preview');
  assert.is(preview.status, 200, preview.text);
  assert.match(preview.body.message.title, 'Weekly host digest');
  assert.match(preview.body.message.text, 'CPU average');
  assert.equal(preview.body.data.backups.map((b: { target: string }) => b.target), [backup], 'the backup rule\'s path');
  assert.ok(Array.isArray(preview.body.data.fired));
  const list = await call('/api/alerts/digests');
  assert.equal(list.body.data.map((d: { id: string }) => d.id), ['host']);
  const sent = await post('/api/alerts/digests/host/send', {});
  assert.is(sent.status, 202, sent.text);
  assert.match(sent.body.event_id, /^host:digest:.*:now-\d+$/);
  await waitFor(() => digests().length === 2 || null, { timeoutMs: 10_000, what: 'the sent-now digest' });
  assert.is(digests().filter((d) => d.event_id === weekly.event_id).length, 1, 'the weekly one went once');
  assert.is((await call('/api/alerts/digests/nope/preview')).status, 404);
});

test('perch\'s alertctl clear empties the host alerts\' history', async () => {
  const before = (await call('/api/monitor?brief=1')).body.recent as { id: string }[];
  assert.ok(before.length > 0);
  assert.is((await post('/api/alertctl', { action: 'clear' })).status, 200);
  // Rules still breaching fire again at the next tick (in cooldown): none of the old events is left.
  const after = (await call('/api/monitor?brief=1')).body.recent as { id: string }[];
  assert.equal(after.filter((e) => before.some((b) => b.id === e.id)), []);
});

test('the health score answers with findings in words and says what it could not check', async () => {
  const health = await call('/api/healthscore');
  assert.is(health.status, 200, health.text);
  assert.ok(Number.isInteger(health.body.score) && health.body.score >= 0 && health.body.score <= 100);
  for (const f of health.body.findings) assert.ok(f.path.startsWith('/host') && f.title.length > 0);
  assert.ok(Array.isArray(health.body.unchecked));
});

test.run();
