// The channels API in a real runtime (SDK harness, SQLite): secrets go in and only masks come out, they are
// encrypted at rest under a 0600 key file and never logged; the config file's channels answer 409 to a change;
// tests send at once and answer with the outcome.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { slackInvalidPayload, slackOk, startReceivers, type Receivers } from '../../../support/channel-receivers.js';

const SLACK_TOKEN = 'T000/B000/slack-secret-token-4c1d';
const CONFIG_TOKEN = 'config-secret-token-9f2e';
const PASSWORD = 'smtp-password-never-shown-77';
let rt: TestRuntime;
let rx: Receivers;
const logs: string[] = [];

test.before(async () => {
  rx = await startReceivers();
  rx.script(`/services/${CONFIG_TOKEN}`, [slackOk]);
  rt = await startTestRuntime({
    plugins: [],
    log: (line) => logs.push(line),
    config: { channels: { targets: [{ id: 'ops', type: 'slack', name: 'Ops room', url: rx.url(`/services/${CONFIG_TOKEN}`) }] } },
  });
});
test.after(async () => {
  await rt?.stop();
  await rx?.close();
});

const call = async (path: string, init: RequestInit = {}) => {
  const res = await rt.fetch(path, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
};
const post = (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body) });
const put = (path: string, body: unknown) => call(path, { method: 'PUT', body: JSON.stringify(body) });

test('a created channel comes back masked: the URL shows its host only, and the list names the secrets that are set', async () => {
  const created = await post('/api/alerts/channels', { id: 'team', type: 'slack', name: 'Team', url: rx.url(`/services/${SLACK_TOKEN}`) });
  assert.is(created.status, 201, created.text);
  assert.is(created.body.source, 'store');
  assert.is(created.body.settings.url, `${rx.url('')}/••••••••`);
  assert.equal(created.body.secrets, ['url']);
  const list = await call('/api/alerts/channels');
  assert.equal(list.body.data.map((c: { id: string; source: string }) => [c.id, c.source]), [['ops', 'config'], ['team', 'store']]);
  assert.is(list.body.data[0].name, 'Ops room');
  assert.not.match(list.text, SLACK_TOKEN);
  assert.not.match(list.text, CONFIG_TOKEN);
});

test('an email channel\'s password is stored encrypted: not in the database file, and the key file is 0600', async () => {
  const created = await post('/api/alerts/channels', {
    id: 'mail', type: 'email', host: '127.0.0.1', port: 2525, security: 'none', user: 'alerts', password: PASSWORD, from: 'alerts@example.com', to: ['ops@example.com'],
  });
  assert.is(created.status, 201, created.text);
  assert.is(created.body.settings.password, '••••••••');
  assert.is(created.body.settings.user, 'alerts');
  const db = readFileSync(join(rt.dataDir, 'vigil.db'));
  assert.is(db.indexOf(PASSWORD), -1, 'no plaintext password in the database');
  assert.is(db.indexOf(SLACK_TOKEN), -1, 'no plaintext webhook token in the database');
  const key = join(rt.dataDir, 'plugins', 'channels', 'secrets.key');
  assert.is(statSync(key).mode & 0o777, 0o600);
  assert.is(statSync(key).size, 32);
});

test('an update without the secret keeps it; a test sends through the kept URL and answers with the outcome', async () => {
  const updated = await put('/api/alerts/channels/team', { type: 'slack', name: 'Team room' });
  assert.is(updated.status, 200, updated.text);
  assert.is(updated.body.name, 'Team room');
  assert.equal(updated.body.secrets, ['url']);
  rx.script(`/services/${SLACK_TOKEN}`, [slackOk]);
  const result = await post('/api/alerts/channels/team/test', {});
  assert.is(result.status, 200, result.text);
  assert.is(result.body.ok, true);
  assert.is(result.body.error, null);
  const [sent] = rx.received(`/services/${SLACK_TOKEN}`);
  assert.match(JSON.parse(sent.raw.toString('utf8')).text, 'Vigil test notification: Team room');
  const toEmail = await put('/api/alerts/channels/team', { type: 'email', host: 'h', from: 'a@b.c', to: ['d@e.f'] });
  assert.is(toEmail.status, 200, 'a type change drops the secrets the new type does not take');
  assert.equal(toEmail.body.secrets, []);
  const toDiscord = await put('/api/alerts/channels/team', { type: 'discord' });
  assert.is(toDiscord.status, 400);
  assert.is(toDiscord.body.error.code, 'VIGIL_ERR_CHANNELS_SETTINGS');
  assert.match(toDiscord.body.error.message, 'url');
});

test('a failing test says why, and whether retrying could help', async () => {
  rx.script('/services/refusing', [slackInvalidPayload]);
  assert.is((await post('/api/alerts/channels', { id: 'refusing', type: 'slack', url: rx.url('/services/refusing') })).status, 201);
  const result = await post('/api/alerts/channels/refusing/test', {});
  assert.is(result.body.ok, false);
  assert.is(result.body.retryable, false);
  assert.match(result.body.error, 'answered 400: invalid_payload');
  assert.is((await post('/api/alerts/channels/nope/test', {})).status, 404);
});

test('test-all tests every enabled channel at once', async () => {
  assert.is((await post('/api/alerts/channels', { id: 'off', type: 'slack', enabled: false, url: rx.url('/services/off') })).status, 201);
  const all = await call('/api/alerts/channels/test-all', { method: 'POST' });
  assert.is(all.status, 200, all.text);
  const byId = Object.fromEntries(all.body.data.map((r: { channel_id: string; ok: boolean }) => [r.channel_id, r.ok]));
  assert.equal(byId, { ops: true, mail: false, team: false, refusing: false });
  assert.is(rx.received('/services/off').length, 0, 'a disabled channel is not tested by test-all');
  assert.ok(rx.received(`/services/${CONFIG_TOKEN}`).length >= 1);
});

test('the config file\'s channels answer 409 to a change or a delete; ids are unique across both', async () => {
  const change = await put('/api/alerts/channels/ops', { type: 'slack', name: 'x' });
  assert.is(change.status, 409);
  assert.is(change.body.error.code, 'VIGIL_ERR_CHANNELS_FROM_CONFIG');
  assert.is((await call('/api/alerts/channels/ops', { method: 'DELETE' })).status, 409);
  const clash = await post('/api/alerts/channels', { id: 'ops', type: 'desktop' });
  assert.is(clash.status, 409);
  assert.is(clash.body.error.code, 'VIGIL_ERR_CHANNELS_EXISTS');
  assert.is((await post('/api/alerts/channels', { id: 'team', type: 'desktop' })).status, 409);
  assert.is((await call('/api/alerts/channels/refusing', { method: 'DELETE' })).status, 200);
  assert.is((await call('/api/alerts/channels/refusing')).status, 404);
  assert.is((await call('/api/alerts/channels/refusing', { method: 'DELETE' })).status, 404);
});

test('bad input: an unknown key, a key of another type, a missing URL, a bad address, an id that is not a slug', async () => {
  const cases: [unknown, RegExp][] = [
    [{ id: 'a', type: 'slack', url: 'http://x/y', colour: 'red' }, /colour/],
    [{ id: 'a', type: 'email', host: 'h', from: 'a@b.c', to: ['d@e.f'], url: 'http://x/y' }, /url/],
    [{ id: 'a', type: 'slack' }, /url/],
    [{ id: 'a', type: 'email', host: 'h', from: 'a@b.c', to: ['not an address'] }, /to\.0: "not an address" is not an address/],
    [{ id: 'Not A Slug', type: 'desktop' }, /id/],
    [{ id: 'a', type: 'webhook', url: 'ftp://x/y' }, /url/],
  ];
  for (const [body, message] of cases) {
    const r = await post('/api/alerts/channels', body);
    assert.is(r.status, 400, JSON.stringify(body));
    assert.match(r.body.error.message, message);
  }
});

test('no secret reaches the log, even where sends failed', async () => {
  const all = logs.join('\n');
  assert.ok(all.length > 0);
  for (const secret of [SLACK_TOKEN, CONFIG_TOKEN, PASSWORD]) assert.is(all.indexOf(secret), -1, secret);
});

test.run();
