// The traffic lane in front of a real upstream: live traffic is never modified, policy comes before capture
// machinery, upstream failures become 502 / 504, client aborts reach the upstream. In-process through the SDK
// harness (with the real capture plugin, and a recorder subscribed to gateway.exchange), then through `vigil run`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { definePlugin } from '@vigil/plugin-sdk';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import type { RawExchange } from '../../gateway/govern/types.js';
import { freePort, waitFor } from '../support/net.js';
import { parseExposition, samplesOf } from '../support/prometheus-text.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingUpstream as startUpstream, type Responder } from '../support/recording-upstream.js';

interface Reply { status: number; rawHeaders: string[]; body: Buffer }

/** A request with an exact header block (rawHeaders form). `body` as an array is sent chunked, one write each. */
function send(port: number, o: { method?: string; path: string; headers?: string[]; body?: Buffer | Buffer[] }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers = [...(o.headers ?? [])];
    if (!headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')) headers.unshift('Host', `127.0.0.1:${port}`);
    if (Buffer.isBuffer(o.body)) headers.push('Content-Length', String(o.body.length));
    const req = request({ host: '127.0.0.1', port, method: o.method ?? 'GET', path: o.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const chunk of Array.isArray(o.body) ? o.body : o.body ? [o.body] : []) req.write(chunk);
    req.end();
  });
}

/** True when `pairs` (name, value, …) appear in `raw` in this order, names and values exact. */
function containsInOrder(raw: string[], pairs: string[]): boolean {
  let at = 0;
  for (let i = 0; i + 1 < raw.length && at < pairs.length; i += 2) {
    if (raw[i] === pairs[at] && raw[i + 1] === pairs[at + 1]) at += 2;
  }
  return at === pairs.length;
}
const names = (raw: string[]) => raw.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
const valuesOf = (raw: string[], name: string) => raw.filter((_, i) => i % 2 === 1 && raw[i - 1].toLowerCase() === name);

// ---- the runtime under test ------------------------------------------------------------------------------------

const exchanges: RawExchange[] = [];
const recorder = definePlugin({
  name: 'exchange-recorder',
  version: '0.0.0',
  setup(ctx) {
    let off: (() => void) | undefined;
    return {
      start() { off = ctx.bus.subscribe('gateway.exchange', (batch) => { exchanges.push(...batch); }, { batch: 1 }); },
      stop() { off?.(); },
    };
  },
});

const MAX_BODY = 4096;
const rules = [
  { name: 'all', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant-Id' } },
  { name: 'restricted', match: { path: '/restricted/**' }, restrict: ['request_body', 'response_body', 'headers'] },
  { name: 'bodies-only-restricted', match: { path: '/headers-only/**' }, restrict: ['request_body', 'response_body'] },
];

async function startGateway(upstream: string, service: Record<string, unknown> = {}): Promise<{ rt: TestRuntime; port: number }> {
  const port = await freePort();
  const rt = await startTestRuntime({
    plugins: [recorder],
    config: { service: { upstream, listen: `127.0.0.1:${port}`, ...service }, rules, capture: { max_body_bytes: MAX_BODY } },
  });
  return { rt, port };
}

async function copies(rt: TestRuntime): Promise<{ request: number; response: number }> {
  const parsed = parseExposition(await rt.metrics());
  const of = (part: string) => samplesOf(parsed, 'vigil_proxy_body_copies_total', { part })[0]?.value ?? 0;
  return { request: of('request_body'), response: of('response_body') };
}

const exchangeFor = (url: string): Promise<RawExchange> =>
  waitFor(() => exchanges.find((e) => e.target === url), { what: `exchange for ${url}` }) as Promise<RawExchange>;

const payloads: Record<string, { body: Buffer; headers: string[] }> = {
  'invalid-json': { body: Buffer.from('{"a": [1, 2,, "unterminated'), headers: ['Content-Type', 'application/json'] },
  binary: { body: randomBytes(20_000), headers: ['Content-Type', 'application/octet-stream'] },
  gzip: { body: gzipSync(Buffer.from(JSON.stringify({ many: 'x'.repeat(5000) }))), headers: ['Content-Type', 'application/json', 'Content-Encoding', 'gzip'] },
  empty: { body: Buffer.alloc(0), headers: [] },
};
const stalled: ServerResponse[] = [];
const responders: Record<string, Responder> = {
  '/chunked': (_q, res) => { res.writeHead(200, ['Content-Type', 'text/plain']); res.write('one,'); setTimeout(() => { res.write('two,'); res.end('three'); }, 20); },
  '/odd-headers': (_q, res) => {
    res.writeHead(201, 'Made It', ['X-MiXeD-CaSe', 'v1', 'Set-Cookie', 'a=1; Path=/', 'set-cookie', 'b=2; HttpOnly', 'X-Long', 'L'.repeat(8000), 'Content-Length', '2']);
    res.end('ok');
  },
  '/hop': (_q, res) => {
    res.writeHead(200, ['Connection', 'X-Upstream-Hop', 'X-Upstream-Hop', 'secret', 'Keep-Alive', 'timeout=9', 'Trailer', 'X-Sum', 'X-Kept', 'yes']);
    res.end('ok');
  },
  '/stall': (_q, res) => { stalled.push(res); },
  '/stream-forever': (_q, res) => { res.writeHead(200); res.write('first chunk'); stalled.push(res); },
  '/slow': (_q, res) => { setTimeout(() => res.end('slow but done'), 300); },
  '/no-content': (_q, res) => { res.writeHead(204); res.end(); },
};
for (const [kind, p] of Object.entries(payloads)) {
  responders[`/bytes/${kind}`] = (_q, res) => { res.writeHead(200, [...p.headers, 'Content-Length', String(p.body.length)]); res.end(p.body); };
}

const traffic = suite('gateway traffic lane');
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let gw: { rt: TestRuntime; port: number };

traffic.before(async () => {
  upstream = await startUpstream(responders);
  gw = await startGateway(`http://127.0.0.1:${upstream.port}`, { timeout: '500ms' });
});

traffic.after(async () => {
  for (const res of stalled) res.destroy();
  await gw?.rt.stop();
  upstream?.server.closeAllConnections();
  upstream?.server.close();
});

traffic('bodies pass byte for byte both ways: invalid JSON, binary, gzip (never decompressed), empty', async () => {
  for (const [kind, p] of Object.entries(payloads)) {
    const before = upstream.received.length;
    const reply = await send(gw.port, { method: 'POST', path: `/bytes/${kind}`, headers: p.headers, body: p.body });
    const got = upstream.received[before];
    assert.ok(got.body.equals(p.body), `${kind}: upstream received different bytes`);
    assert.ok(reply.body.equals(p.body), `${kind}: client received different bytes`);
    assert.ok(containsInOrder(got.rawHeaders, p.headers), `${kind}: request headers changed`);
    assert.ok(containsInOrder(reply.rawHeaders, p.headers), `${kind}: response headers changed`);
  }
});

traffic('a chunked upload and a chunked download stream through unchanged', async () => {
  const parts = [Buffer.from('alpha-'), randomBytes(3000), Buffer.from('-omega')];
  const before = upstream.received.length;
  const reply = await send(gw.port, { method: 'PUT', path: '/chunked', body: parts });
  const got = upstream.received[before];
  // Framing is per hop: the upstream may get chunked or a Content-Length (when the body was whole before the
  // upstream connection was ready); the bytes are what counts.
  assert.ok(got.body.equals(Buffer.concat(parts)));
  assert.is(reply.body.toString(), 'one,two,three');
  assert.equal(valuesOf(reply.rawHeaders, 'transfer-encoding'), ['chunked']);
});

traffic('bodiless exchanges stay bodiless: GET without a body, 204, HEAD', async () => {
  const before = upstream.received.length;
  const get = await send(gw.port, { path: '/bytes/empty' });
  assert.is(get.body.length, 0);
  assert.equal(valuesOf(upstream.received[before].rawHeaders, 'transfer-encoding'), []);
  const noContent = await send(gw.port, { method: 'DELETE', path: '/no-content' });
  assert.is(noContent.status, 204);
  const head = await send(gw.port, { method: 'HEAD', path: '/bytes/binary' });
  assert.is(head.body.length, 0);
  assert.equal(valuesOf(head.rawHeaders, 'content-length'), [String(payloads.binary.body.length)]);
});

traffic('odd but legal headers pass as sent: repeats, casing, order, long values, several Set-Cookie', async () => {
  const sent = ['X-REPEAT', 'one', 'x-Repeat', 'two', 'X-Long-Value', 'v'.repeat(8000), 'x-odd_Name', ' spaced  value', 'X-Empty', ''];
  const before = upstream.received.length;
  const reply = await send(gw.port, { path: '/odd-headers', headers: sent });
  assert.ok(containsInOrder(upstream.received[before].rawHeaders, ['X-REPEAT', 'one', 'x-Repeat', 'two', 'X-Long-Value', 'v'.repeat(8000)]));
  assert.equal(valuesOf(upstream.received[before].rawHeaders, 'x-odd_name'), ['spaced  value']);
  assert.equal(valuesOf(upstream.received[before].rawHeaders, 'x-empty'), ['']);
  assert.is(reply.status, 201);
  assert.ok(containsInOrder(reply.rawHeaders, ['X-MiXeD-CaSe', 'v1', 'Set-Cookie', 'a=1; Path=/', 'set-cookie', 'b=2; HttpOnly', 'X-Long', 'L'.repeat(8000)]));
});

traffic('hop-by-hop fields are not forwarded either way; Connection-listed fields neither', async () => {
  const before = upstream.received.length;
  const reply = await send(gw.port, {
    path: '/hop',
    headers: ['Connection', 'keep-alive, X-Client-Hop', 'X-Client-Hop', 'secret', 'Keep-Alive', 'timeout=5', 'Proxy-Connection', 'keep-alive', 'TE', 'trailers', 'X-Kept', 'yes'],
  });
  const up = upstream.received[before].rawHeaders;
  assert.not.ok(names(up).includes('x-client-hop'));
  assert.not.ok(names(up).includes('proxy-connection'));
  assert.not.ok(names(up).includes('te'));
  assert.equal(valuesOf(up, 'keep-alive'), []);
  assert.equal(valuesOf(up, 'x-kept'), ['yes']);
  assert.not.ok(names(reply.rawHeaders).includes('x-upstream-hop'));
  assert.not.ok(names(reply.rawHeaders).includes('trailer'));
  assert.not.ok(valuesOf(reply.rawHeaders, 'keep-alive').includes('timeout=9'));
  assert.equal(valuesOf(reply.rawHeaders, 'x-kept'), ['yes']);
});

traffic('X-Forwarded-For is appended; -Proto and -Host are added; Host is preserved', async () => {
  const before = upstream.received.length;
  await send(gw.port, { path: '/fwd', headers: ['Host', 'api.example.test', 'X-Forwarded-For', '203.0.113.7'] });
  const up = upstream.received[before].rawHeaders;
  assert.equal(valuesOf(up, 'x-forwarded-for'), ['203.0.113.7, 127.0.0.1']);
  assert.equal(valuesOf(up, 'x-forwarded-proto'), ['http']);
  assert.equal(valuesOf(up, 'x-forwarded-host'), ['api.example.test']);
  assert.equal(valuesOf(up, 'host'), ['api.example.test']);
});

traffic('a restricted route allocates no body copies and publishes nothing; a captured route does both', async () => {
  const body = Buffer.from(JSON.stringify({ secret: 'never copied' }));
  const c0 = await copies(gw.rt);
  await send(gw.port, { method: 'POST', path: '/restricted/x', headers: ['Content-Type', 'application/json'], body });
  const c1 = await copies(gw.rt);
  assert.equal(c1, c0, 'a restricted route allocated a copy');
  await send(gw.port, { method: 'POST', path: '/captured/x', headers: ['Content-Type', 'application/json', 'X-Tenant-Id', 'acme'], body });
  const c2 = await copies(gw.rt);
  assert.is(c2.request, c1.request + 1);
  assert.is(c2.response, c1.response + 1);
  const e = await exchangeFor('/captured/x');
  assert.ok(Buffer.from(e.requestBody!).equals(body));
  assert.is(Buffer.from(e.responseBody!).toString(), 'ok');
  assert.equal(e.labels, { tenant: 'acme' });
  assert.equal(e.ruleIndexes, [0]);
  assert.is(e.status, 200);
  assert.ok(e.requestHeaders!.includes('X-Tenant-Id'));
  assert.not.ok(exchanges.some((x) => x.target === '/restricted/x'), 'an exchange was published for a route that captures nothing');
});

traffic('restricting bodies only: no copies, headers still published, bodies null', async () => {
  const c0 = await copies(gw.rt);
  await send(gw.port, { method: 'POST', path: '/headers-only/x', body: Buffer.from('payload') });
  assert.equal(await copies(gw.rt), c0);
  const e = await exchangeFor('/headers-only/x');
  assert.is(e.requestBody, null);
  assert.is(e.responseBody, null);
  assert.ok(e.requestHeaders && e.responseHeaders);
});

traffic('a body over max_body_bytes is forwarded whole; the exchange holds the first bytes, marked truncated', async () => {
  const big = randomBytes(MAX_BODY * 5 + 17);
  responders['/big'] = (_q, res) => res.end(big);
  const before = upstream.received.length;
  const reply = await send(gw.port, { method: 'POST', path: '/big', body: big });
  assert.ok(upstream.received[before].body.equals(big));
  assert.ok(reply.body.equals(big));
  const e = await exchangeFor('/big');
  assert.is(e.requestTruncated, true);
  assert.is(e.responseTruncated, true);
  assert.ok(Buffer.from(e.requestBody!).equals(big.subarray(0, MAX_BODY)));
  assert.ok(Buffer.from(e.responseBody!).equals(big.subarray(0, MAX_BODY)));
});

traffic('a body larger than the request buffer streams through byte for byte from its first byte, chunked or not', async () => {
  const big = randomBytes(300 * 1024 + 7);
  for (const [path, body] of [['/past-buffer/length', big], ['/past-buffer/chunked', [big.subarray(0, 1000), big.subarray(1000, 70_000), big.subarray(70_000)]]] as const) {
    const before = upstream.received.length;
    const reply = await send(gw.port, { method: 'PUT', path, body: body as Buffer | Buffer[] });
    assert.is(reply.status, 200);
    assert.ok(upstream.received[before].body.equals(big), `${path}: the upstream received different bytes`);
    const e = await exchangeFor(path);
    assert.ok(Buffer.from(e.requestBody!).equals(big.subarray(0, MAX_BODY)), `${path}: the copy is the body's first bytes`);
    assert.is(e.requestTruncated, true);
    assert.is(e.requestIncomplete, false);
  }
});

traffic('a stalled upstream gives 504 with a JSON error after service.timeout', async () => {
  const reply = await send(gw.port, { path: '/stall' });
  assert.is(reply.status, 504);
  assert.equal(valuesOf(reply.rawHeaders, 'content-type'), ['application/json; charset=utf-8']);
  const body = JSON.parse(reply.body.toString()) as { error: { code: string; message: string } };
  assert.is(body.error.code, 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT');
  assert.type(body.error.message, 'string');
  const e = await exchangeFor('/stall');
  assert.is(e.status, 504);
  assert.is(e.error, 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT');
});

traffic('a client abort mid-upload aborts the upstream request; the gateway keeps serving', async () => {
  const before = upstream.received.length;
  const req = request({ host: '127.0.0.1', port: gw.port, method: 'POST', path: '/upload-abort', agent: false, headers: { 'content-length': '1000000' } });
  req.on('error', () => {});
  req.write(randomBytes(64 * 1024));
  await waitFor(() => upstream.received.length > before, { what: 'upstream saw the upload' });
  req.destroy();
  await waitFor(() => upstream.received[before].aborted, { what: 'upstream request aborted' });
  const e = await exchangeFor('/upload-abort');
  assert.is(e.error, 'client_aborted');
  assert.is(e.status, 0);
  assert.is((await send(gw.port, { path: '/after-abort' })).body.toString(), 'ok');
});

traffic('a client abort mid-download aborts the upstream response', async () => {
  const before = upstream.received.length;
  await new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: gw.port, path: '/stream-forever', agent: false }, (res) => {
      res.once('data', () => { req.destroy(); resolve(); });
    });
    req.on('error', () => {});
    req.on('timeout', reject);
    req.end();
  });
  await waitFor(() => upstream.received[before]?.responseAborted, { what: 'upstream response aborted' });
});

traffic('request metrics by route, method, status class and policy label', async () => {
  await send(gw.port, { path: '/metered', headers: ['X-Tenant-Id', 'globex'] });
  await send(gw.port, { path: '/restricted/metered' });
  const parsed = parseExposition(await gw.rt.metrics());
  const hit = samplesOf(parsed, 'vigil_http_requests_total', { route: '/**', method: 'GET', status_class: '2xx', tenant: 'globex' });
  assert.is(hit[0]?.value, 1);
  const restricted = samplesOf(parsed, 'vigil_http_requests_total', { route: '/restricted/**', method: 'GET', tenant: '' });
  assert.ok((restricted[0]?.value ?? 0) >= 1);
  assert.ok(samplesOf(parsed, 'vigil_http_request_duration_seconds_count', { route: '/**', tenant: 'globex' })[0]?.value === 1);
  assert.ok((samplesOf(parsed, 'vigil_http_requests_total', { status_class: '5xx' })[0]?.value ?? 0) >= 1, 'the 504 was counted');
});

traffic('stop lets a request in flight finish, then refuses connections', async () => {
  const inFlight = send(gw.port, { path: '/slow' });
  await waitFor(() => upstream.received.some((r) => r.url === '/slow'), { what: 'slow request upstream' });
  const stopping = gw.rt.stop();
  const reply = await inFlight;
  assert.is(reply.body.toString(), 'slow but done');
  await stopping;
  await send(gw.port, { path: '/' }).then(() => assert.unreachable('still listening'), (err: NodeJS.ErrnoException) => assert.is(err.code, 'ECONNREFUSED'));
});

traffic.run();

// ---- failures that need their own gateway ----------------------------------------------------------------------

const failures = suite('gateway traffic lane: upstream down');

failures('a closed upstream port gives 502 with a JSON error, and the gateway stays up', async () => {
  const closedPort = await freePort();
  const down = await startGateway(`http://127.0.0.1:${closedPort}`);
  try {
    for (let i = 0; i < 3; i++) {
      const reply = await send(down.port, { method: 'POST', path: '/x', body: Buffer.from('{}') });
      assert.is(reply.status, 502);
      const body = JSON.parse(reply.body.toString()) as { error: { code: string } };
      assert.is(body.error.code, 'VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE');
    }
    const parsed = parseExposition(await down.rt.metrics());
    assert.is(samplesOf(parsed, 'vigil_proxy_failures_total', { code: 'VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE' })[0]?.value, 3);
  } finally {
    await down.rt.stop();
  }
});

failures.run();

// ---- the real CLI with a seed-style policy file ----------------------------------------------------------------

const cli = suite('gateway traffic lane: vigil run -config policy.yaml');
const work = tempDir('vigil-gateway-');
let vigil: VigilProcess | undefined;

cli.after(async () => {
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

cli('a seed-style policy runs as is: original bytes both ways, the stored record redacted', async () => {
  const original = Buffer.from('{"card":{"number":"4111111111111111","cvc":"123"},"items":[{"card":{"n":1}}],"note":"keep"}');
  const answer = Buffer.from('{"id":7,"iban":"DE89370400440532013000"}');
  const up = await startUpstream({ '/api/payments/charge': (_q, res) => { res.writeHead(200, ['Content-Type', 'application/json']); res.end(answer); } });
  const [listen, control] = [await freePort(), await freePort()];
  const file = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${up.port}
  listen: 127.0.0.1:${listen}

rules:
  - name: all-traffic
    match:
      path: /**
    labels:
      tenant: header:X-Tenant-Id
    redact:
      headers: [Authorization]
  - name: payments
    match:
      path: /api/payments/**
    redact:
      json_fields: [$.card.number, $.*.cvc, $.**.iban, $.items.*.card]

control_plane: { listen: 127.0.0.1:${control}, token: gateway-test-token }
`, 'policy.yaml');
  try {
    vigil = await startVigil(file, `http://127.0.0.1:${control}`, { cwd: work.path });
    const reply = await send(listen, {
      method: 'POST', path: '/api/payments/charge',
      headers: ['Content-Type', 'application/json', 'Authorization', 'Bearer live-secret', 'X-Tenant-Id', 'acme'], body: original,
    });
    assert.ok(up.received[0].body.equals(original), 'the upstream did not receive the original bytes');
    assert.equal(valuesOf(up.received[0].rawHeaders, 'authorization'), ['Bearer live-secret']);
    assert.ok(reply.body.equals(answer), 'the client did not receive the upstream bytes');
    const record = await waitFor(async () => {
      const res = await fetch(`http://127.0.0.1:${control}/api/gateway/records`, { headers: { authorization: 'Bearer gateway-test-token' } });
      const list = (await res.json()) as { data: Record<string, unknown>[] };
      return list.data[0];
    }, { what: 'a stored record' });
    const text = JSON.stringify(record);
    for (const secret of ['4111111111111111', '"123"', 'DE89370400440532013000', 'live-secret']) assert.not.ok(text.includes(secret), `${secret} stored`);
    assert.ok(text.includes('"keep"'));
    assert.equal(record.labels, { tenant: 'acme' });
    assert.equal(record.matched_rules, ['all-traffic', 'payments']);
    assert.is(record.error, null);
  } finally {
    up.server.closeAllConnections();
    up.server.close();
  }
});

cli('an unknown key in the service section exits 2 before listening', async () => {
  const listen = await freePort();
  const file = writeConfig(work.path, `service:\n  upstream: http://127.0.0.1:1\n  listen: 127.0.0.1:${listen}\n  timeot: 5s\nrules: []\n`, 'bad.yaml');
  const r = await runVigil(['run', '-config', file], { cwd: work.path });
  assert.is(r.code, 2);
  assert.match(r.stderr, /service\.timeot/);
  await send(listen, { path: '/' }).then(() => assert.unreachable('listening'), (err: NodeJS.ErrnoException) => assert.is(err.code, 'ECONNREFUSED'));
});

cli.run();
