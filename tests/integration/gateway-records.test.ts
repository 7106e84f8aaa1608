// Issue 3 acceptance: `vigil run` with a seed-style policy in front of a real upstream. What the store holds is
// governed; what the client and the upstream see is the original.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingUpstream, type Received } from '../support/recording-upstream.js';
import { sendThrough, waitForRecord } from '../support/gateway-client.js';

type Rec = Record<string, any>;
const TOKEN = 'records-test-token';
const gateway = suite('gateway records');
const work = tempDir('vigil-records-');
let vigil: VigilProcess;
let upstream: Awaited<ReturnType<typeof startRecordingUpstream>> | undefined;
let proxyPort = 0;
let cp = '';
let received: Received[] = [];

gateway.before(async () => {
  upstream = await startRecordingUpstream({}, (req, res) => {
    const status = Number(new URL(req.url!, 'http://x').searchParams.get('status') ?? 200);
    res.writeHead(status, { 'content-type': 'application/json', 'set-cookie': ['sid=abc', 'theme=dark'] });
    res.end(JSON.stringify({ status, echo: 'resp-body', user: { card: '4111111111111111' } }));
  });
  received = upstream.received;
  const upPort = upstream.port;
  proxyPort = await freePort();
  const cpPort = await freePort();
  cp = `http://127.0.0.1:${cpPort}`;
  const file = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upPort}
  listen: 127.0.0.1:${proxyPort}
rules:
  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant-Id, plan: header:x-plan }
    redact:
      headers: [authorization, X-API-KEY, Set-Cookie]
      query_params: [token]
  - name: payments
    match: { path: /api/payments/** }
    redact:
      json_fields: [$.card.number, $.*.cvc, $.**.iban, $.items.*.secret]
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body]
  - name: search
    match: { path: /api/search }
    sample: 0
    keep_errors: true
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

const send = (method: string, path: string, headers: string[], body?: string) => sendThrough(proxyPort, method, path, headers, body);
const recordFor = (path: string) => waitForRecord(cp, TOKEN, path);

gateway('JSON fields at the three path forms, in nested objects and arrays, hold the marker; others are kept', async () => {
  const body = JSON.stringify({
    card: { number: '4111111111111111', cvc: '123', brand: 'visa' },
    wallet: { cvc: '999' },
    deep: { nested: { iban: 'DE89370400440532013000' } },
    iban: 'GB82WEST12345698765432',
    items: [{ secret: 's1', sku: 'a' }, { secret: { x: 1 }, sku: 'b' }],
  });
  const res = await send('POST', '/api/payments/charge', ['Content-Type', 'application/json', 'X-Tenant-Id', 'acme'], body);
  assert.is(res.status, 200);
  assert.is(received.at(-1)!.body.toString(), body, 'the upstream saw the original body');
  const r = await recordFor('/api/payments/charge');
  const b = r.request_body;
  assert.is(b.card.number, '[REDACTED]');
  assert.is(b.card.cvc, '[REDACTED]');
  assert.is(b.wallet.cvc, '[REDACTED]');
  assert.is(b.deep.nested.iban, '[REDACTED]');
  assert.is(b.iban, '[REDACTED]', '$.**.iban matches at the top level too');
  assert.is(b.items[0].secret, '[REDACTED]');
  assert.is(b.items[1].secret, '[REDACTED]', 'a whole object is replaced');
  assert.is(b.card.brand, 'visa');
  assert.is(b.items[1].sku, 'b');
  assert.equal(r.matched_rules, ['all', 'payments']);
  assert.equal(r.labels, { tenant: 'acme' }, 'labels come from headers; an absent header gives no label');
});

gateway('headers and query parameters hold the marker whatever their case or repetition', async () => {
  const res = await send('GET', '/api/items?token=t1&TOKEN=t2&token=t3&page=2', [
    'AUTHORIZATION', 'Bearer live-1', 'x-api-key', 'k1', 'X-Api-Key', 'k2', 'X-Tenant-Id', 'globex', 'X-Plan', 'gold', 'Accept', 'application/json',
  ]);
  assert.is(res.status, 200);
  assert.match(received.at(-1)!.url, /token=t1&TOKEN=t2&token=t3/);
  assert.match(res.body, /4111111111111111/, 'the client saw the upstream body');
  const r = await recordFor('/api/items');
  const text = JSON.stringify(r);
  for (const secret of ['live-1', 'k1', 'k2', 't1', 't2', 't3', 'sid=abc', 'theme=dark']) assert.not.ok(text.includes(secret), `${secret} stored`);
  assert.is(r.headers.Authorization, '[REDACTED]');
  const apiKey = r.headers['X-Api-Key'];
  assert.ok(Array.isArray(apiKey) ? apiKey.every((v: string) => v === '[REDACTED]') : apiKey === '[REDACTED]');
  assert.is(r.headers.Accept, 'application/json', 'canonical capitalisation, value kept');
  assert.is(r.query.page, '2');
  assert.equal(r.labels, { tenant: 'globex', plan: 'gold' });
});

gateway('a restricted route has no bodies in its record', async () => {
  const res = await send('POST', '/admin/users', ['Content-Type', 'application/json'], '{"password":"hunter2"}');
  assert.is(res.status, 200);
  assert.is(received.at(-1)!.body.toString(), '{"password":"hunter2"}');
  const r = await recordFor('/admin/users');
  assert.is(r.request_body, null);
  assert.is(r.response_body, null);
  assert.not.ok(JSON.stringify(r).includes('hunter2'));
  assert.equal(r.matched_rules, ['all', 'admin']);
});

gateway('sample: 0 with keep_errors: true keeps 5xx bodies only', async () => {
  await send('POST', '/api/search?status=200', ['Content-Type', 'application/json'], '{"q":"ok-request"}');
  await send('POST', '/api/search?status=503', ['Content-Type', 'application/json'], '{"q":"failing-request"}');
  const ok = await waitFor(async () => {
    const res = await fetch(`${cp}/api/gateway/records?route=/api/search&status=2xx`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return ((await res.json()) as { data: Rec[] }).data[0];
  }, { what: 'the 200 search record' });
  const failed = await waitFor(async () => {
    const res = await fetch(`${cp}/api/gateway/records?route=/api/search&status=5xx`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return ((await res.json()) as { data: Rec[] }).data[0];
  }, { what: 'the 503 search record' });
  assert.is(ok.request_body, null);
  assert.is(ok.response_body, null);
  assert.is(ok.sampled, false);
  assert.equal(failed.request_body, { q: 'failing-request' });
  assert.is(failed.response_body.echo, 'resp-body');
  assert.is(failed.status, 503);
});

gateway('label filters and usage per tenant see the traffic', async () => {
  const res = await fetch(`${cp}/api/gateway/records?label.tenant=acme`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const { data } = (await res.json()) as { data: Rec[] };
  assert.ok(data.length >= 1);
  assert.ok(data.every((r) => r.labels.tenant === 'acme'));
});

gateway('text, tenant and method filters narrow the list; bad values get 400', async () => {
  await send('GET', '/api/Orders/ord_41?status=200', ['X-Tenant-Id', 'umbrella']);
  await send('DELETE', '/api/orders/ord_42?status=200', ['X-Tenant-Id', 'umbrella']);
  await send('GET', '/api/100%25_off?status=200', ['X-Tenant-Id', 'initech']);
  await recordFor('/api/100%25_off');
  const list = async (query: string) => {
    const res = await fetch(`${cp}/api/gateway/records?${query}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.is(res.status, 200, query);
    return ((await res.json()) as { data: Rec[] }).data;
  };
  await waitFor(async () => (await list('tenant=umbrella')).length === 2, { what: 'both umbrella records' });
  assert.equal((await list('tenant=umbrella')).map((r) => r.path).sort(), ['/api/Orders/ord_41', '/api/orders/ord_42']);
  assert.equal((await list('tenant=umbrella&method=delete')).map((r) => r.path), ['/api/orders/ord_42'], 'the method in any case');
  assert.equal((await list('q=ORDERS/ORD_4')).map((r) => r.path).sort(), ['/api/Orders/ord_41', '/api/orders/ord_42'], 'text in the path, any case');
  assert.equal((await list('q=ord_4&method=GET')).map((r) => r.path), ['/api/Orders/ord_41']);
  // LIKE's wildcards are literal in the text: `_` matches only an underscore, `%` only a percent sign.
  assert.equal((await list('q=' + encodeURIComponent('100%25_'))).map((r) => r.path), ['/api/100%25_off']);
  assert.equal(await list('q=' + encodeURIComponent('ord%4')), []);
  // Text that only the bodies or headers hold does not match: the filter reads the path.
  assert.equal(await list('q=resp-body'), []);
  assert.equal(await list('tenant=nobody'), []);
  for (const bad of ['method=G3T', `q=${'x'.repeat(201)}`, 'q=', 'tenant=']) {
    const res = await fetch(`${cp}/api/gateway/records?${bad}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.is(res.status, 400, bad);
  }
});

gateway.run();
