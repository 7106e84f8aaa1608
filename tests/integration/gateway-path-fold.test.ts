// Issue 21 (1): `vigil run` in front of a real upstream, sent every spelling family of a restricted path and of a
// redacted one. No spelling may store what its rule keeps out, and each record keeps the path exactly as sent.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'node:http';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingUpstream, type Received } from '../support/recording-upstream.js';
import { adminUsers, authorityTricks, eachSpelling, paymentsCharge, terminatorTricks } from '../support/path-spellings.js';

type Rec = Record<string, any>;
const TOKEN = 'path-fold-token';
const CARD = '4111111111111111';
const PASSWORD = 'hunter2-restricted';
const gateway = suite('gateway path fold');
const work = tempDir('vigil-path-fold-');
let vigil: VigilProcess;
let upstream: Awaited<ReturnType<typeof startRecordingUpstream>> | undefined;
let proxyPort = 0;
let cp = '';
let received: Received[] = [];

gateway.before(async () => {
  upstream = await startRecordingUpstream({}, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, password: PASSWORD }));
  });
  received = upstream.received;
  proxyPort = await freePort();
  const cpPort = await freePort();
  cp = `http://127.0.0.1:${cpPort}`;
  const file = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upstream.port}
  listen: 127.0.0.1:${proxyPort}
rules:
  - name: all
    match: { path: /** }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body]
  - name: payments
    match: { path: /api/payments/** }
    redact:
      json_fields: [$.card.number]
  - name: charge
    match: { path: /api/payments/charge }
    redact:
      json_fields: [$.card.brand]
control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
data_dir: ${work.path}/data
`, 'policy.yaml');
  vigil = await startVigil(file, cp, { cwd: work.path });
});

gateway.after(async () => {
  await vigil?.stop('SIGKILL');
  upstream?.close();
  work.cleanup();
});

/** The request-target exactly as written (node:http sends `path` as is; undici would parse it as a URL first). */
function sendRaw(target: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: proxyPort, method: 'POST', path: target, agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode!)); });
    req.on('error', reject);
    req.end(body);
  });
}

async function recordsByPath(paths: string[]): Promise<Map<string, Rec>> {
  return waitFor<Map<string, Rec> | undefined>(async () => {
    const res = await fetch(`${cp}/api/gateway/records?limit=200`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const { data } = (await res.json()) as { data: Rec[] };
    const byPath = new Map(data.map((r) => [r.path as string, r]));
    return paths.every((p) => byPath.has(p)) ? byPath : undefined;
  }, { what: `records for ${paths.length} spellings`, timeoutMs: 20_000 }) as Promise<Map<string, Rec>>;
}

// Node's HTTP parser answers 400 itself to a target that starts with "\" or has one in its authority: such a request
// never reaches the proxy, so there is nothing to govern.
const refusedByNode = (target: string) => target.startsWith('\\') || /^[a-z]+:\/\/[^/]*\\/i.test(target);
const withoutQuery = (target: string) => target.split('?')[0];

gateway('no spelling of /admin/users stores its bodies; the record keeps the path as sent', async () => {
  const targets = [...eachSpelling(adminUsers), ...eachSpelling(authorityTricks)].map(([, t]) => t);
  const sent: string[] = [];
  for (const target of targets) {
    const status = await sendRaw(target, JSON.stringify({ password: PASSWORD }));
    if (refusedByNode(target)) { assert.is(status, 400, target); continue; }
    assert.is(status, 200, target);
    if (target.startsWith('/')) assert.ok(received.some((r) => r.url === target), `the upstream got ${target} unchanged`);
    sent.push(target);
  }
  assert.ok(sent.length >= targets.length - 3, 'nearly every spelling went through');
  const records = await recordsByPath(sent.map(withoutQuery));
  for (const target of sent) {
    const r = records.get(withoutQuery(target))!;
    assert.is(r.path, withoutQuery(target));
    assert.ok(r.matched_rules.includes('admin'), `${target}: matched ${r.matched_rules}`);
    assert.is(r.request_body, null, target);
    assert.is(r.response_body, null, target);
    assert.not.ok(JSON.stringify(r).includes(PASSWORD), `${target}: the password is stored`);
  }
});

gateway('every spelling of /api/payments/charge stores the card number as [REDACTED]', async () => {
  const targets = eachSpelling(paymentsCharge).map(([, t]) => t);
  const body = JSON.stringify({ card: { number: CARD, brand: 'visa' }, amount: 1999 });
  for (const target of targets) assert.is(await sendRaw(target, body), 200, target);
  const records = await recordsByPath(targets.map(withoutQuery));
  for (const target of targets) {
    const r = records.get(withoutQuery(target))!;
    assert.is(r.path, withoutQuery(target));
    assert.equal(r.matched_rules, ['all', 'payments', 'charge'], target);
    assert.is(r.request_body.card.number, '[REDACTED]', target);
    assert.is(r.request_body.card.brand, '[REDACTED]', target);
    assert.is(r.request_body.amount, 1999, target);
    assert.not.ok(JSON.stringify(r).includes(CARD), `${target}: the card number is stored`);
  }
});

gateway('a decoded ?, #, NUL or line break that ends the path for a downstream cannot hide the exact rule of /api/payments/charge', async () => {
  const targets = eachSpelling(terminatorTricks).map(([, t]) => t);
  const body = JSON.stringify({ card: { number: CARD, brand: 'visa' }, amount: 1999 });
  for (const target of targets) assert.is(await sendRaw(target, body), 200, target);
  const records = await recordsByPath(targets);
  for (const target of targets) {
    const r = records.get(target)!;
    assert.is(r.path, target);
    assert.ok(r.matched_rules.includes('charge'), `${target}: matched ${r.matched_rules}`);
    assert.is(r.request_body.card.brand, '[REDACTED]', target);
  }
});

gateway.run();
