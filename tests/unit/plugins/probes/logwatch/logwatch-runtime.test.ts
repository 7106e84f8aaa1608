// The logs API and the log watchers in a real runtime (SDK harness, SQLite) with the alerts and channels plugins and
// a local webhook receiver: a line the test writes to a file fires the watcher's own `host.log_match` rule through the alerts engine
// and the webhook receives the notice; the watcher's test shows what it matches now; a catastrophic pattern, a file
// outside the allowed folders and a 21st watcher are refused; /api/logs reads the file with filters and says what it
// read for the journal views.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { journalPresent } from '../../../../../plugins/probes/logs/journal.js';
import { startReceivers, type Receivers } from '../../../../support/channel-receivers.js';
import { waitFor } from '../../../../support/net.js';
import { tempDir } from '../../../../support/tmp.js';

const dir = tempDir('vigil-logwatch-rt-');
const logs = join(dir.path, 'logs');
mkdirSync(logs);
const file = join(logs, 'app.log');
writeFileSync(file, 'service started\n');
let rt: TestRuntime;
let rx: Receivers;

test.before(async () => {
  rx = await startReceivers();
  rt = await startTestRuntime({
    plugins: [],
    config: {
      probes: { logs: { allow: [logs], watch_interval: '1s' } },
      channels: { backoff: '100ms', targets: [{ id: 'hook', type: 'webhook', url: rx.url('/hook'), secret: 'webhook-secret-for-tests-0123' }] },
      alerts: { interval: '1s' },
    },
  });
});
test.after(async () => {
  await rt?.stop();
  await rx?.close();
  dir.cleanup();
});

const call = async (path: string, init: RequestInit = {}) => {
  const res = await rt.fetch(path, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
};
const post = (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body) });
const disk = { name: 'disk-full', pattern: 'No space left on device', source: 'file', path: file };

test('a line written to a watched file fires the host.log_match rule, and the webhook receives the notice', async () => {
  const saved = await post('/api/logwatchconfig', { enabled: true, rules: [disk] });
  assert.is(saved.status, 200, saved.text);
  assert.is(saved.body.alert_source, 'host.log_match');
  assert.is(saved.body.interval_s, 1, 'the configured interval (perch\'s 20 s by default)');
  assert.is(saved.body.dedup_s, 300);
  // Saving the watcher gave it an alert rule of its own: every watcher alerts, through every channel.
  const rules = (await call('/api/alerts/rules')).body.data as { id: string; name: string; source: string; scope: object; enabled: boolean }[];
  const own = rules.filter((r) => r.source === 'host.log_match');
  assert.equal(own.map((r) => [r.name, r.scope, r.enabled]), [['Log: disk-full', { target: 'disk-full' }, true]]);
  const ruleId = own[0].id;
  // The first poll notes where the file ends; only lines after it count.
  await waitFor(async () => (await call('/api/logwatch')).body.rules[0].state.polled_at ?? null, { timeoutMs: 10_000, what: 'the first poll' });
  appendFileSync(file, 'app[12]: write /data/x: No space left on device\n');
  const watched = await waitFor(async () => {
    const r = (await call('/api/logwatch')).body.rules[0];
    return r.state.recent.length ? r : null;
  }, { timeoutMs: 10_000, what: 'the line recorded' });
  assert.is(watched.state.recent[0].line, 'app[12]: write /data/x: No space left on device');
  assert.is(watched.state.matches_24h, 1);
  const event = await waitFor(async () => (await call(`/api/alerts/events?rule_id=${encodeURIComponent(ruleId)}`)).body.data[0] ?? null, { timeoutMs: 15_000, what: 'the rule firing' });
  assert.is(event.source, 'host.log_match');
  assert.equal(event.scope, { target: 'disk-full' });
  assert.is(event.value, 1);
  const hook = await waitFor(async () => rx.received('/hook').find((r) => r.raw.toString().includes('Log: disk-full')) ?? null, { timeoutMs: 15_000, what: 'the webhook notice' });
  assert.ok(hook);
});

test('the test shows what a watcher matches now, without saving it; bad watchers are refused with the key', async () => {
  const tried = await post('/api/logwatch/test', { rule: { ...disk, name: 'try', pattern: 'no space', ignore_case: true } });
  assert.is(tried.status, 200, tried.text);
  assert.is(tried.body.matched, 1);
  assert.is(tried.body.lines_read, 2);
  assert.is(tried.body.matches[0].line, 'app[12]: write /data/x: No space left on device');
  assert.is(tried.body.timed_out, false);
  assert.equal((await call('/api/logwatch')).body.rules.map((r: { name: string }) => r.name), ['disk-full'], 'a test saves nothing');

  const evil = await post('/api/logwatchconfig', { rules: [disk, { ...disk, name: 'evil', pattern: '(\\w+\\s?)+$' }] });
  assert.is(evil.status, 400);
  assert.is(evil.body.error.code, 'VIGIL_ERR_PROBES_LOG_WATCHER');
  assert.match(evil.body.error.message, 'rules[1].pattern');
  assert.match((await post('/api/logwatch/test', { rule: { ...disk, pattern: '(a+)+' } })).body.error.message, 'catastrophically');
  const outside = await post('/api/logwatchconfig', { rules: [{ ...disk, path: '/etc/passwd' }] });
  assert.is(outside.status, 400);
  assert.match(outside.body.error.message, 'rules[0].path');
  const twice = await post('/api/logwatchconfig', { rules: [disk, disk] });
  assert.match(twice.body.error.message, 'used by two watchers');
  const many = await post('/api/logwatchconfig', { rules: Array.from({ length: 21 }, (_, i) => ({ ...disk, name: `w${i}` })) });
  assert.is(many.status, 400);
  assert.is((await post('/api/logwatchconfig', { rules: [{ ...disk, extra: 1 }] })).status, 400, 'unknown keys are refused');
  assert.equal((await call('/api/logwatch')).body.rules.map((r: { name: string }) => r.name), ['disk-full'], 'nothing refused was saved');
  // Watchers switched off keep their rules switched off; a watcher removed takes its rule along.
  assert.is((await post('/api/logwatchconfig', { enabled: false, rules: [disk, { ...disk, name: 'oom', pattern: 'Out of memory' }] })).status, 200);
  const logRules = async () => ((await call('/api/alerts/rules')).body.data as { name: string; source: string; enabled: boolean }[])
    .filter((r) => r.source === 'host.log_match').map((r) => [r.name, r.enabled]).sort();
  assert.equal(await logRules(), [['Log: disk-full', false], ['Log: oom', false]]);
  assert.is((await post('/api/logwatchconfig', { enabled: true, rules: [disk] })).status, 200);
  assert.equal(await logRules(), [['Log: disk-full', true]]);
});

test('GET /api/logs: a file with filters; the journal views say what they read; bounds and bad values refused', async () => {
  const q = await call(`/api/logs?source=file&path=${encodeURIComponent(file)}&q=SPACE&n=5`);
  assert.is(q.status, 200, q.text);
  assert.equal(q.body.lines.map((l: { message: string }) => l.message), ['app[12]: write /data/x: No space left on device']);
  assert.is(q.body.origin, 'file');
  const system = await call('/api/logs?source=system&n=5&prio=err');
  assert.is(system.status, 200, system.text);
  if (await journalPresent()) assert.is(system.body.origin, 'journal');
  else assert.match(system.body.note, 'no journal on this machine');
  assert.is((await call('/api/logs?source=file&path=/etc/passwd')).body.error.code, 'VIGIL_ERR_PROBES_LOG_PATH');
  assert.is((await call('/api/logs?n=1001')).status, 400);
  assert.is((await call('/api/logs?prio=loud')).body.error.code, 'VIGIL_ERR_PROBES_LOG_QUERY');
  assert.is((await call('/api/logs?source=file')).status, 400);
});

test('/metrics carries node-exporter\'s names, unprefixed', async () => {
  const text = await rt.metrics();
  assert.match(text, /^node_cpu_seconds_total\{cpu="0",mode="idle"\} \d/m);
  assert.match(text, /^node_memory_MemAvailable_bytes \d/m);
  assert.match(text, /^node_load1 /m);
});

test.run();
