// Issue 4 acceptance (WASM policies): `vigil policy build` makes the card-numbers module, `vigil run` applies it on
// the telemetry lane to the requests its rule matches. The store holds what the module redacted; the client and a
// real upstream see the original bytes. A module that traps or loops fails its records closed and is counted; no
// module can undo what the YAML policy restricts, redacts or labels.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { freePort, waitFor } from '../support/net.js';
import { fixture, fromRoot } from '../support/paths.js';
import { parseExposition } from '../support/prometheus-text.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingUpstream, type Received } from '../support/recording-upstream.js';
import { sendThrough, waitForRecord } from '../support/gateway-client.js';

const TOKEN = 'wasm-policy-test-token';
const gateway = suite('gateway wasm policy');
const work = tempDir('vigil-wasm-policy-');
let vigil: VigilProcess | undefined;
let upstream: Awaited<ReturnType<typeof startRecordingUpstream>> | undefined;
let proxyPort = 0;
let cp = '';
let received: Received[] = [];
/** What the upstream answers: a card number of its own, in a field no YAML rule names. */
const UPSTREAM_ANSWER = JSON.stringify({ status: 'accepted', refund_to: '5555555555554444', at: 1700000000000 });

const POLICY = `rules:
  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant-Id, owner: header:X-Team }
    redact: { headers: [authorization] }
  - name: orders
    match: { path: /api/orders/** }
    wasm: ./card-numbers.wasm
    redact: { json_fields: [$.cvc] }
  - name: private-orders
    match: { path: /api/orders/private/** }
    restrict: [response_body]
  - name: echoed
    match: { path: /api/echo/** }
    wasm: ./echo.wasm
  - name: echoed-private
    match: { path: /api/echo/private/** }
    redact: { headers: [X-Owner], json_fields: [$.pin] }
  - name: trapping
    match: { path: /api/trap/** }
    wasm: ./trap.wasm
  - name: looping
    match: { path: /api/loop/** }
    wasm: ./loop.wasm
  - name: swapped
    match: { path: /api/swap/** }
    wasm: ./swap.wasm
`;

// uvu reports a failing hook only as failed tests: print why.
gateway.before(() => setUp().catch((err) => {
  console.error('gateway wasm policy: set-up failed:', err);
  throw err;
}));

async function setUp(): Promise<void> {
  // The example's source, built where it lies with the real CLI: FILE.ts gives FILE.wasm next to it.
  copyFileSync(fromRoot('examples/policies/card-numbers.ts'), join(work.path, 'card-numbers.ts'));
  const built = await runVigil(['policy', 'build', 'card-numbers.ts'], { cwd: work.path });
  assert.is(built.code, 0, built.stderr);
  assert.match(built.stdout, /^built card-numbers\.wasm \(\d+ bytes, memory capped at 256 pages\)/);
  for (const guest of ['echo', 'trap', 'loop']) copyFileSync(fixture('wasm', `${guest}.wasm`), join(work.path, `${guest}.wasm`));
  copyFileSync(join(work.path, 'echo.wasm'), join(work.path, 'swap.wasm'));

  upstream = await startRecordingUpstream({}, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(UPSTREAM_ANSWER);
  });
  received = upstream.received;
  const upPort = upstream.port;
  proxyPort = await freePort();
  const cpPort = await freePort();
  cp = `http://127.0.0.1:${cpPort}`;
  writeFileSync(join(work.path, 'policy.yaml'), POLICY);
  const file = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upPort}
  listen: 127.0.0.1:${proxyPort}
${POLICY}control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
data_dir: ${work.path}/data
`);
  vigil = await startVigil(file, cp, { cwd: work.path });
}

gateway.after(async () => {
  await vigil?.stop('SIGKILL');
  upstream?.close();
  work.cleanup();
});

const send = (path: string, headers: string[], body: string | Buffer) => sendThrough(proxyPort, 'POST', path, headers, body);
const recordFor = (path: string) => waitForRecord(cp, TOKEN, path, 20_000);

async function sandboxFailures(reason: string): Promise<number> {
  const res = await fetch(`${cp}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const sample = parseExposition(await res.text()).samples
    .find((s) => s.name === 'vigil_sandbox_failures_total' && s.labels.sandbox === 'wasm' && s.labels.reason === reason);
  return sample?.value ?? 0;
}

const JSON_TYPE = ['Content-Type', 'application/json'];

gateway('a card number in a field no YAML rule names is stored as [REDACTED]; client and upstream see the original', async () => {
  const body = JSON.stringify({ customer: { name: 'Ada' }, payment: { pan: '4111 1111 1111 1111' }, cvc: '123', placed_at: 1700000000000 });
  const res = await send('/api/orders/1', [...JSON_TYPE, 'X-Tenant-Id', 'acme'], body);
  assert.is(res.status, 200);
  assert.is(res.body, UPSTREAM_ANSWER, 'the client saw the upstream\'s card number');
  assert.is(received.at(-1)!.body.toString(), body, 'the upstream saw the original body');
  const r = await recordFor('/api/orders/1');
  assert.equal(r.request_body, { customer: { name: 'Ada' }, payment: { pan: '[REDACTED]' }, cvc: '[REDACTED]', placed_at: 1700000000000 });
  assert.equal(r.response_body, { status: 'accepted', refund_to: '[REDACTED]', at: 1700000000000 });
  assert.is(r.dropped_reason, null);
  assert.equal(r.matched_rules, ['all', 'orders']);
  assert.not.ok(JSON.stringify(r).includes('4111 1111'));
  assert.not.ok(JSON.stringify(r).includes('5555555555554444'));
});

gateway('the module sees compressed bodies; the upstream gets the compressed bytes as sent', async () => {
  const gz = gzipSync(Buffer.from(JSON.stringify({ card_on_file: '4111111111111111', note: 'gzip' })));
  const res = await send('/api/orders/2', [...JSON_TYPE, 'Content-Encoding', 'gzip'], gz);
  assert.is(res.status, 200);
  assert.ok(received.at(-1)!.body.equals(gz));
  const r = await recordFor('/api/orders/2');
  assert.equal(r.request_body, { card_on_file: '[REDACTED]', note: 'gzip' });
});

gateway('a module never un-restricts, un-redacts or replaces a label', async () => {
  // YAML restricts the response body here and redacts $.cvc and Authorization; the module only adds to that.
  await send('/api/orders/private/3', [...JSON_TYPE, 'Authorization', 'Bearer live-secret'], JSON.stringify({ pan: '4111111111111111', cvc: '999' }));
  const restricted = await recordFor('/api/orders/private/3');
  assert.is(restricted.response_body, null);
  assert.equal(restricted.request_body, { pan: '[REDACTED]', cvc: '[REDACTED]' });
  assert.is(restricted.headers.Authorization, '[REDACTED]');

  // echo.wasm labels every request `route: <method> <path> → ✓` and `owner` from X-Owner; YAML reads owner from X-Team.
  // (echo also lists the body fields it saw in a `fields` label.)
  await send('/api/echo/mine', [...JSON_TYPE, 'X-Team', 'payments', 'X-Owner', 'ann', 'X-Tenant-Id', 'acme'], '{}');
  const kept = await recordFor('/api/echo/mine');
  assert.is(kept.labels.owner, 'payments', 'owner stays the YAML label');
  assert.is(kept.labels.tenant, 'acme');
  assert.is(kept.labels.route, 'POST /api/echo/mine → ✓', 'a new label is added');
  await send('/api/echo/filled', [...JSON_TYPE, 'X-Owner', 'ann'], '{}');
  const filled = await recordFor('/api/echo/filled');
  assert.is(filled.labels.owner, 'ann', 'a label the YAML policy left empty is filled');

  // Where the YAML policy redacts X-Owner and $.pin, a guest label copying either value holds the marker.
  await send('/api/echo/private/1', [...JSON_TYPE, 'X-Owner', 'ann-secret'], JSON.stringify({ pin: '9876', ok: 'yes' }));
  const masked = await recordFor('/api/echo/private/1');
  assert.is(masked.headers['X-Owner'], '[REDACTED]');
  assert.is(masked.labels.owner, '[REDACTED]');
  assert.is(masked.labels.fields, '[REDACTED]', 'the fields label held request:$.pin=9876');
  assert.equal(masked.request_body, { pin: '[REDACTED]', ok: 'yes' });
  assert.not.ok(JSON.stringify(masked).includes('ann-secret'));
  assert.not.ok(JSON.stringify(masked).includes('9876'));
});

gateway('a module that traps or loops fails its records closed, says why, and is counted; traffic is untouched', async () => {
  const trapsBefore = await sandboxFailures('trap');
  const timeoutsBefore = await sandboxFailures('timeout');
  const body = JSON.stringify({ secret: 'kept-off-the-record', n: 1 });
  for (const path of ['/api/trap/1', '/api/loop/1']) {
    const res = await send(path, JSON_TYPE, body);
    assert.is(res.status, 200, path);
    assert.is(res.body, UPSTREAM_ANSWER, path);
    assert.is(received.at(-1)!.body.toString(), body, path);
  }
  const trapped = await recordFor('/api/trap/1');
  const looped = await recordFor('/api/loop/1');
  for (const [r, reason] of [[trapped, 'trap'], [looped, 'timeout']] as const) {
    assert.is(r.request_body, null, reason);
    assert.is(r.response_body, null, reason);
    assert.is(r.dropped_reason, `wasm policy failed (${reason}): bodies not kept`);
    assert.is(r.status, 200, 'metadata is kept');
  }
  // A worker stores its rows before the main thread hears of the batch and counts its failures: wait for the count.
  await waitFor(async () => await sandboxFailures('trap') > trapsBefore, { what: 'the trap to be counted' });
  await waitFor(async () => await sandboxFailures('timeout') > timeoutsBefore, { what: 'the timeout to be counted' });

  // The looping instance was replaced and the other modules kept serving. A module's budget is wall time, so on a
  // machine loaded past its cores one call can time out too (and fail closed, as above): three tries, one must serve.
  let served: unknown = null;
  for (let attempt = 1; attempt <= 3 && served === null; attempt++) {
    await send(`/api/orders/after-loop/${attempt}`, JSON_TYPE, JSON.stringify({ pan: '4111111111111111' }));
    served = (await recordFor(`/api/orders/after-loop/${attempt}`)).request_body;
  }
  assert.equal(served, { pan: '[REDACTED]' });
});

gateway('vigil policy test runs the vigil test cases with the module the policy names', async () => {
  writeFileSync(join(work.path, 'cases.yaml'), `cases:
  - name: a card number no YAML rule names
    request:
      method: POST
      path: /api/orders/9
      body: { payment: { pan: "4111111111111111" }, placed_at: 1700000000000 }
    expect:
      redacted: [request_body.payment.pan]
      kept: [request_body.placed_at]
`);
  const withModule = await runVigil(['policy', 'test', '-config', 'policy.yaml', 'cases.yaml'], { cwd: work.path });
  assert.is(withModule.code, 0, withModule.stdout + withModule.stderr);
  assert.match(withModule.stdout, /1 cases: 1 passed, 0 failed/);
  const yamlOnly = await runVigil(['test', '-config', 'policy.yaml', 'cases.yaml'], { cwd: work.path });
  assert.is(yamlOnly.code, 1, 'the YAML policy alone does not redact it');
});

gateway('a missing module is a config problem: exit 2, with the file, line and key', async () => {
  const bad = writeConfig(work.path, 'service:\n  upstream: http://127.0.0.1:1\nrules:\n  - name: a\n    match: { path: /** }\n    wasm: ./not-built.wasm\n', 'bad.yaml');
  for (const command of ['validate', 'run']) {
    const r = await runVigil([command, '-config', bad], { cwd: work.path });
    assert.is(r.code, 2, `${command}: ${r.stderr}`);
    assert.match(r.stderr, /bad\.yaml:6:\d+/);
    assert.match(r.stderr, /rules\[0\]\.wasm: .*not-built\.wasm does not exist; build it with `vigil policy build POLICY\.ts`/);
  }
  assert.not.ok(existsSync(join(work.path, 'not-built.wasm')));
});

gateway('a module rebuilt in place applies after SIGHUP, though the config file is the same', async () => {
  const body = JSON.stringify({ payment: { pan: '4111 1111 1111 1111' } });
  await send('/api/swap/1', JSON_TYPE, body);
  const before = await recordFor('/api/swap/1');
  assert.equal(before.request_body, { payment: { pan: '4111 1111 1111 1111' } }, 'the echo module redacts nothing');
  assert.is(before.labels.route, 'POST /api/swap/1 → ✓');

  copyFileSync(join(work.path, 'card-numbers.wasm'), join(work.path, 'swap.wasm'));
  vigil!.proc.kill('SIGHUP');
  await waitFor(() => /"msg":"config reloaded".*"plugins":\["governance"\]/.test(vigil!.stderr()), { what: 'the reload to be applied' });
  await send('/api/swap/2', JSON_TYPE, body);
  const after = await recordFor('/api/swap/2');
  assert.equal(after.request_body, { payment: { pan: '[REDACTED]' } }, 'the rebuilt module governs the next requests');
  assert.is(after.labels.route, undefined);
});

gateway('vigil stops cleanly with sandboxes running: no worker thread keeps the process alive', async () => {
  const exit = await vigil!.stop('SIGTERM');
  vigil = undefined;
  assert.equal(exit, { code: 0, signal: null });
});

gateway.run();
