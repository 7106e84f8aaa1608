// One table of requests through three paths: a real `vigil run` gateway in front of the plain app, and the same app
// with @vigil/express or @vigil/koa mounted, shipping to a real `vigil run` agent. The stored records must be equal
// field for field (ids, times and durations aside), and the app's bytes must not change with the middleware on.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { vigil as vigilExpress } from '@vigil/express';
import { vigil as vigilKoa } from '@vigil/koa';
import { freePort } from '../support/net.js';
import { fixture } from '../support/paths.js';
import { rawExchange } from '../support/raw-http.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startApp, type Framework, type Mountable, type TestApp } from '../support/middleware-apps.js';

const TOKEN = 'middleware-dashboard-token';
const INGEST = 'middleware-ingest-token-0123456789';
const RULES = `rules:
  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant }
    redact: { headers: [Authorization, X-Secret], query_params: [token] }
  - name: users
    match: { path: /api/users/** }
    redact: { json_fields: [$.password, $.card.number, $.echo.password] }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body, headers]
  - name: private
    match: { path: /private/** }
    restrict: [request_body]
  - name: search
    match: { path: /api/search/** }
    sample: 0
    keep_errors: true
  - name: always
    match: { path: /api/always/** }
    sample: 1
  - name: wasm
    match: { path: /api/wasm/** }
    wasm: ./echo.wasm
`;

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: string[];
  body?: string | Buffer;
  /** No record at all (a route that captures nothing). */
  noRecord?: true;
  check?(record: any): void;
}

const json = (v: unknown) => JSON.stringify(v);
const CASES: Case[] = [
  {
    name: 'JSON body with redacted fields, and a redacted header', method: 'POST', path: '/api/users/1',
    headers: ['Content-Type', 'application/json', 'Authorization', 'Bearer sk-secret'],
    body: json({ name: 'Ada', password: 'hunter2', card: { number: '4111111111111111', exp: '12/30' } }),
    check: (r) => {
      assert.is(r.request_body.password, '[REDACTED]');
      assert.is(r.request_body.card.number, '[REDACTED]');
      assert.is(r.response_body.echo.password, '[REDACTED]');
      assert.is(r.headers.Authorization, '[REDACTED]');
    },
  },
  { name: 'query redaction', method: 'GET', path: '/api/users/2?token=abc&q=x', check: (r) => assert.equal(r.query, { token: '[REDACTED]', q: 'x' }) },
  {
    name: 'labels, and a label header that is redacted elsewhere', method: 'GET', path: '/api/users/3',
    headers: ['X-Tenant', 'acme', 'X-Secret', 's3cret'],
    check: (r) => { assert.equal(r.labels, { tenant: 'acme' }); assert.is(r.headers['X-Secret'], '[REDACTED]'); },
  },
  { name: 'restricted route: nothing recorded', method: 'POST', path: '/admin/settings', headers: ['Content-Type', 'application/json'], body: json({ a: 1 }), noRecord: true },
  {
    name: 'restricted request body', method: 'POST', path: '/private/upload', headers: ['Content-Type', 'application/json'], body: json({ secret: 1 }),
    check: (r) => { assert.is(r.request_body, null); assert.ok(r.response_body); },
  },
  { name: 'sample 0', method: 'GET', path: '/api/search/ok', check: (r) => { assert.is(r.sampled, false); assert.is(r.response_body, null); } },
  { name: 'a 500 kept by keep_errors', method: 'GET', path: '/api/search/boom', check: (r) => { assert.is(r.status, 500); assert.is(r.sampled, true); assert.is(r.response_body.error, 'boom'); } },
  { name: 'sample 1', method: 'GET', path: '/api/always/x', check: (r) => { assert.is(r.sampled, true); assert.ok(r.response_body); } },
  {
    name: 'bodies over capture.max_body_bytes', method: 'POST', path: '/api/echo/large', headers: ['Content-Type', 'text/plain'], body: 'x'.repeat(5_000),
    check: (r) => { assert.is(r.truncated, true); assert.is(r.request_body.length, 2_048); assert.is(r.response_body.length, 2_048); },
  },
  {
    name: 'a response written in chunks (chunked on the wire)', method: 'GET', path: '/api/users/stream/x',
    check: (r) => { assert.equal(r.response_body, { part: 1, password: '[REDACTED]', part2: 2 }); assert.is(r.response_headers['Transfer-Encoding'], undefined); },
  },
  {
    name: 'a WASM policy module (labels from the guest)', method: 'GET', path: '/api/wasm/x', headers: ['X-Owner', 'ops'],
    check: (r) => { assert.is(r.labels.owner, 'ops'); assert.is(r.labels.route, 'GET /api/wasm/x → ✓'); },
  },
  {
    name: 'gzip-encoded JSON request body', method: 'POST', path: '/api/users/gzip',
    headers: ['Content-Type', 'application/json', 'Content-Encoding', 'gzip'], body: gzipSync(json({ password: 'zipped', keep: 'me' })),
    check: (r) => { assert.is(r.request_body.password, '[REDACTED]'); assert.is(r.request_body.keep, 'me'); },
  },
];

const key = (method: string, path: string) => `${method} ${path.split('?')[0]}`;

/** A record without what differs between two runs of the same request: ids, times, durations, the Date header. */
function comparable(record: any): any {
  const { id: _id, time: _time, duration_ms: _d, ...rest } = record;
  if (rest.response_headers?.Date !== undefined) rest.response_headers = { ...rest.response_headers, Date: '<date>' };
  return rest;
}

async function send(port: number, c: Case): Promise<void> {
  const res = await request(`http://127.0.0.1:${port}${c.path}`, {
    method: c.method, headers: ['Host', 'api.example.test', ...(c.headers ?? [])], body: c.body,
  });
  await res.body.arrayBuffer();
}

/** The exact bytes of the app's answer, on a connection of its own, with the Date line (which ticks) masked. */
async function rawAnswer(port: number, c: Case): Promise<string> {
  const body = c.body === undefined ? Buffer.alloc(0) : Buffer.from(c.body);
  const lines = [`${c.method} ${c.path} HTTP/1.1`, 'Host: api.example.test', 'Connection: close'];
  for (let i = 0; i + 1 < (c.headers ?? []).length; i += 2) lines.push(`${c.headers![i]}: ${c.headers![i + 1]}`);
  if (body.length > 0) lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  const bytes = await rawExchange(port, Buffer.concat([head, body]));
  return bytes.toString('latin1').replace(/\r\nDate: [^\r]*/, '\r\nDate: <date>');
}

const work = tempDir('vigil-middleware-');
let agentUrl = '';
const gateways: Partial<Record<Framework, { vigil: VigilProcess; port: number; cp: string }>> = {};
const apps: Partial<Record<Framework, TestApp>> = {};
let configFile = '';

async function records(cp: string): Promise<any[]> {
  const out: any[] = [];
  let cursor = '';
  for (;;) {
    const res = await fetch(`${cp}/api/gateway/records?limit=200${cursor}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const page = (await res.json()) as { data: any[]; next: string | null };
    out.push(...page.data);
    if (!page.next) return out;
    cursor = `&before=${encodeURIComponent(page.next)}`;
  }
}

/** Waits until `cp` holds `count` records more than `before`, and returns the new ones by method and path. */
async function newRecords(cp: string, before: Set<string>, count: number): Promise<Map<string, any>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const fresh = (await records(cp)).filter((r) => !before.has(r.id));
    if (fresh.length >= count || Date.now() > deadline) {
      assert.is(fresh.length, count, `records stored at ${cp}`);
      return new Map(fresh.map((r) => [key(r.method, r.path), r]));
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function config(framework: Framework, upstreamPort: number, proxyPort: number, cp: string, ingest: boolean): string {
  return writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upstreamPort}
  listen: 127.0.0.1:${proxyPort}
control_plane: { listen: ${cp.slice('http://'.length)}, token: ${TOKEN} }
capture: { batch_delay: 5ms, max_body_bytes: 2kb${ingest ? `, ingest_token: ${INGEST}` : ''} }
exporters:
  - { name: archive, type: file, path: ${work.path}/export-${framework}/records.jsonl }
data_dir: ${work.path}/data-${framework}
${RULES}`, `vigil-${framework}.yaml`);
}

const test = suite('Express and Koa middleware: the gateway\'s records, in-process');

test.before(async () => {
  copyFileSync(fixture('wasm', 'echo.wasm'), join(work.path, 'echo.wasm'));
  for (const framework of ['express', 'koa'] as const) {
    const app = await startApp(framework);
    apps[framework] = app;
    const port = await freePort();
    const cp = `http://127.0.0.1:${await freePort()}`;
    // The express gateway's agent also takes the middleware's records (it alone has an ingest token).
    const file = config(framework, app.port, port, cp, framework === 'express');
    if (framework === 'express') configFile = file;
    gateways[framework] = { vigil: await startVigil(file, cp), port, cp };
  }
  agentUrl = gateways.express!.cp;
});

test.after(async () => {
  for (const g of Object.values(gateways)) await g?.vigil.stop();
  for (const a of Object.values(apps)) await a?.close();
  work.cleanup();
});

const expected = CASES.filter((c) => !c.noRecord).length;

for (const framework of ['express', 'koa'] as const) {
  test(`${framework}: the middleware stores the gateway's records, field for field`, async () => {
    const app = apps[framework]!;
    const gateway = gateways[framework]!;
    // (a) the gateway in front of the plain app
    app.use(null);
    let before = new Set((await records(gateway.cp)).map((r) => r.id));
    for (const c of CASES) await send(gateway.port, c);
    const viaGateway = await newRecords(gateway.cp, before, expected);
    // (b) / (c) the app with the middleware, shipping to the agent
    const mount = (framework === 'express' ? vigilExpress : vigilKoa)({ configPath: configFile, agentUrl, token: INGEST, flushIntervalMs: 20 });
    app.use(mount as unknown as Mountable);
    before = new Set((await records(agentUrl)).map((r) => r.id));
    try {
      for (const c of CASES) await send(app.port, c);
      await mount.flush();
      assert.equal({ sent: mount.stats().sent, dropped: mount.stats().dropped, rejected: mount.stats().rejected }, { sent: expected, dropped: 0, rejected: 0 });
    } finally {
      app.use(null);
      await mount.close();
    }
    const viaMiddleware = await newRecords(agentUrl, before, expected);
    for (const c of CASES) {
      const k = key(c.method, c.path);
      if (c.noRecord) {
        assert.not.ok(viaGateway.has(k), `${c.name}: the gateway recorded ${k}`);
        assert.not.ok(viaMiddleware.has(k), `${c.name}: the middleware recorded ${k}`);
        continue;
      }
      const g = viaGateway.get(k);
      const m = viaMiddleware.get(k);
      assert.ok(g, `${c.name}: no gateway record for ${k}`);
      assert.ok(m, `${c.name}: no middleware record for ${k}`);
      c.check?.(g);
      assert.equal(comparable(m), comparable(g), `${c.name} (${framework})`);
    }
  });

  test(`${framework}: the app's answers are byte-identical with the middleware on`, async () => {
    const app = apps[framework]!;
    const mount = (framework === 'express' ? vigilExpress : vigilKoa)({ configPath: configFile, agentUrl, token: INGEST });
    try {
      for (const c of CASES) {
        app.use(null);
        const off = await rawAnswer(app.port, c);
        app.use(mount as unknown as Mountable);
        const on = await rawAnswer(app.port, c);
        assert.ok(off.startsWith('HTTP/1.1 '), `${c.name}: ${off.slice(0, 80)}`);
        assert.is(on, off, c.name);
      }
    } finally {
      app.use(null);
      await mount.close();
    }
  });
}

test('the agent counts middleware records in its rollups and exports them like the gateway\'s', async () => {
  const stored = await records(agentUrl);
  const overview = (await (await fetch(`${agentUrl}/api/gateway/overview?range=1h`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { requests: number };
  assert.is(overview.requests, stored.length);
  const exported = await waitForLines(join(work.path, 'export-express', 'records.jsonl'), stored.length);
  assert.equal(exported.map((line) => JSON.parse(line).id).sort(), stored.map((r) => r.id).sort());
});

async function waitForLines(path: string, count: number): Promise<string[]> {
  for (let i = 0; i < 200; i++) {
    const lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
    if (lines.length >= count) return lines;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${path} never held ${count} records`);
}

test('agent down: the app still answers, and the records are delivered once it is back', async () => {
  const app = apps.express!;
  const cp = `http://127.0.0.1:${await freePort()}`;
  const mount = vigilExpress({ configPath: configFile, agentUrl: cp, token: INGEST, flushIntervalMs: 20, minBackoffMs: 50, maxBackoffMs: 200, onError: () => {} });
  app.use(mount as unknown as Mountable);
  let later: VigilProcess | undefined;
  try {
    for (let i = 0; i < 5; i++) {
      const res = await request(`http://127.0.0.1:${app.port}/api/always/down-${i}`, { headers: { host: 'api.example.test' } });
      assert.is(res.statusCode, 200);
      await res.body.text();
    }
    await new Promise((r) => setTimeout(r, 300));
    const down = mount.stats();
    assert.is(down.sent, 0);
    assert.ok(down.retries >= 1, `retries: ${down.retries}`);
    assert.is(down.queued, 5);
    const file = writeConfig(work.path, `service: { upstream: http://127.0.0.1:${app.port}, listen: 127.0.0.1:${await freePort()} }
control_plane: { listen: ${cp.slice('http://'.length)}, token: ${TOKEN} }
capture: { ingest_token: ${INGEST} }
data_dir: ${work.path}/data-later
${RULES}`, 'vigil-later.yaml');
    later = await startVigil(file, cp);
    await mount.flush();
    assert.equal({ sent: mount.stats().sent, queued: mount.stats().queued }, { sent: 5, queued: 0 });
    const stored = await records(cp);
    assert.equal(stored.map((r) => r.path).sort(), [0, 1, 2, 3, 4].map((i) => `/api/always/down-${i}`));
  } finally {
    app.use(null);
    await mount.close(100);
    await later?.stop();
  }
});

test('the ingest route: 401 without or with a wrong token, 400 for a malformed record, 413 over its limit, 403 when off', async () => {
  const post = (cp: string, body: string, token?: string) => fetch(`${cp}/api/gateway/records`, {
    method: 'POST', body, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  const shape = async (res: Response, status: number, code?: string) => {
    assert.is(res.status, status);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.type(body.error.message, 'string');
    if (code) assert.is(body.error.code, code);
    return body.error;
  };
  await shape(await post(agentUrl, '{"records":[]}'), 401);
  await shape(await post(agentUrl, '{"records":[]}', 'wrong-token-wrong-token'), 401, 'VIGIL_ERR_CAPTURE_INGEST_TOKEN');
  const bad = await shape(await post(agentUrl, json({ records: [{ id: 'x' }] }), INGEST), 400);
  assert.match(bad.message, /records\[0\]/);
  await shape(await post(agentUrl, `{"records":["${'a'.repeat(17 * 1024 * 1024)}"]}`, INGEST), 413);
  await shape(await post(gateways.koa!.cp, '{"records":[]}', INGEST), 403, 'VIGIL_ERR_CAPTURE_INGEST_DISABLED');
  // A batch sent again (its answer lost) is not stored twice: the ids already stored are skipped.
  const [stored] = await records(agentUrl);
  const again = await post(agentUrl, json({ records: [stored] }), INGEST);
  assert.is(again.status, 200);
  assert.equal(await again.json(), { stored: 0, duplicates: 1, redacted_by_agent: 0, restricted: 0 });
});

test.run();
