// `vigil run` reloads its config file on SIGHUP: changed rules govern the next requests, while an invalid file, or a
// change only a restart applies, leaves the running policy as it was and says why. The gateway serves throughout.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';
import { sendThrough, waitForRecord } from '../support/gateway-client.js';
import { parseExposition, samplesOf } from '../support/prometheus-text.js';

const TOKEN = 'reload-test-token';
const test = suite('gateway config reload');
const work = tempDir('vigil-reload-');
let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;
let vigil: VigilProcess;
let proxyPort = 0;
let cp = '';

/** The config file with `rules` (YAML lines under `rules:`), optional extra core lines and another upstream. */
function writePolicy(rules: string, extra = '', upstreamUrl = `http://127.0.0.1:${upstream.port}`): void {
  writeConfig(work.path, `service:
  upstream: ${upstreamUrl}
  listen: 127.0.0.1:${proxyPort}
rules:
${rules}
control_plane: { listen: ${cp.slice('http://'.length)}, token: ${TOKEN} }
data_dir: ${work.path}/data
${extra}`, 'policy.yaml');
}

const CARD_ONLY = `  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant-Id }
    redact: { json_fields: [$.card] }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body]`;
const CARD_AND_CVC = `  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant-Id }
    redact: { json_fields: [$.card, $.cvc] }
  - name: orders
    match: { path: /api/orders/** }`;

test.before(async () => {
  upstream = await startRecordingUpstream({}, (_q, r) => { r.setHeader('content-type', 'application/json'); r.end('{"ok":true}'); });
  proxyPort = await freePort();
  cp = `http://127.0.0.1:${await freePort()}`;
  writePolicy(CARD_ONLY);
  vigil = await startVigil(`${work.path}/policy.yaml`, cp, { cwd: work.path });
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  upstream?.close();
  work.cleanup();
});

/** Sends SIGHUP and waits for the reload's own log line (the nth reload of this process). */
async function reload(nth: number): Promise<string> {
  vigil.proc.kill('SIGHUP');
  const lines = () => vigil.stderr().split('\n').filter((l) => /"msg":"config reload/.test(l));
  await waitFor(() => lines().length >= nth, { what: `reload ${nth} to be logged` });
  return lines()[nth - 1];
}

/** Sends an order through the gateway and returns its stored record. */
async function captured(path: string): Promise<Record<string, any>> {
  const res = await sendThrough(proxyPort, 'POST', path, ['content-type', 'application/json', 'x-tenant-id', 'acme'], '{"card":"4111111111111111","cvc":"123","note":"kept"}');
  assert.is(res.status, 200);
  return waitForRecord(cp, TOKEN, path);
}

/** The value of one sample on /metrics, 0 when it is not there. */
async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const parsed = parseExposition(await (await fetch(`${cp}/metrics`)).text());
  return samplesOf(parsed, name, labels)[0]?.value ?? 0;
}
const reloadsCounted = (outcome: string) => metric('vigil_config_reloads_total', { outcome });

test('changed rules govern the requests after SIGHUP; the requests before keep the old governance', async () => {
  const before = await captured('/api/pay/1');
  assert.equal(before.request_body, { card: '[REDACTED]', cvc: '123', note: 'kept' });
  assert.is((await captured('/admin/1')).request_body, null, 'restricted: the traffic lane copies no body');

  writePolicy(CARD_AND_CVC);
  assert.match(await reload(1), /"msg":"config reloaded".*"plugins":\["governance"\]/);
  const after = await captured('/api/pay/2');
  assert.equal(after.request_body, { card: '[REDACTED]', cvc: '[REDACTED]', note: 'kept' });
  // The traffic lane decides by the new rules: it now copies the admin body, and files orders under their own route.
  assert.equal((await captured('/admin/2')).request_body, { card: '[REDACTED]', cvc: '[REDACTED]', note: 'kept' });
  assert.equal((await captured('/api/orders/3')).matched_rules, ['all', 'orders']);
  assert.is(await metric('vigil_http_requests_total', { route: '/api/orders/**', method: 'POST', status_class: '2xx', tenant: 'acme' }), 1);
  assert.is(await reloadsCounted('applied'), 1);
});

test('an invalid file is refused with its line and key path; the running rules stay', async () => {
  writePolicy(`${CARD_ONLY}\n    redcat: [$.cvc]`);
  const line = await reload(2);
  assert.match(line, /config reload failed: the file is invalid; nothing changed/);
  assert.match(line, /policy\.yaml:\d+:\d+: unknown key rules\[1\]\.redcat/);
  const still = await captured('/api/pay/4');
  assert.equal(still.request_body.cvc, '[REDACTED]', 'the last applied rules still run');
  assert.is(await reloadsCounted('failed'), 1);
});

test('a change only a restart applies is named and nothing changes, not even the rules beside it', async () => {
  writePolicy(CARD_ONLY, 'shutdown_timeout: 3s\n');
  assert.match(await reload(3), /these changes apply only on a restart; nothing changed.*"restart":\["shutdown_timeout"\]/);
  assert.equal((await captured('/api/pay/5')).request_body.cvc, '[REDACTED]');
  assert.is(await reloadsCounted('restart_required'), 1);
});

test('the proxy refuses new label names (the traffic metrics\' dimensions), and a new upstream needs a restart; the rules stay', async () => {
  writePolicy(CARD_ONLY.replace('tenant: header:X-Tenant-Id', 'team: header:X-Team'));
  assert.match(await reload(4), /a plugin kept its running config.*label names \(tenant → team\)/);
  writePolicy(CARD_ONLY, '', 'http://127.0.0.1:1');
  assert.match(await reload(5), /these changes apply only on a restart; nothing changed.*"restart":\["service"\]/);
  assert.equal((await captured('/api/pay/6')).request_body.cvc, '[REDACTED]');
  assert.is(await reloadsCounted('failed'), 2);
  assert.is(await reloadsCounted('restart_required'), 2);
});

test.run();
