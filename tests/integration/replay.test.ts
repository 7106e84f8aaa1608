// `vigil replay` over what a real `vigil run` stored, against a second real server ("staging") that answers some
// routes differently: statuses and shapes diffed per route, governance's unreplayable records skipped by reason, the
// rate limit honoured, the live upstream refused without --force, exit codes and the JSON report.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig } from '../support/vigil-process.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';
import { sendThrough, waitForRecord } from '../support/gateway-client.js';

const TOKEN = 'replay-test-token';
const replay = suite('vigil replay');
const work = tempDir('vigil-replay-');
let configFile = '';
let proxyPort = 0;

type Row = { route: string; replayed: number; same: number; changed: number; errors: number; skipped: number; skipped_by_reason: Record<string, number>;
  changes: { change: string; kind: string; count: number; example: { record: string; method: string; path: string; stored_status: number; status: number | null; shape?: string[]; detail?: string } }[] };
type Report = { target: string; records: number; replayed: number; same: number; changed: number; errors: number; shape_checked: number;
  skipped: Record<string, number>; failed: boolean; failure: string | null; routes: Row[] };

const user = (id: string) => ({ id: Number(id), name: `user ${id}`, email: `u${id}@example.com` });
const orders = [{ id: 1, total: 10.5, items: [{ sku: 'a' }] }, { id: 2, total: 3, items: [] }];
const large = { rows: Array.from({ length: 200 }, (_, i) => ({ i, label: `row number ${i}` })) };

/** What both servers answer, unless staging overrides it. */
function production(req: IncomingMessage): { status: number; body: unknown } {
  const path = req.url!.split('?')[0];
  const m = /^\/api\/users\/([0-9]+)$/.exec(path);
  if (m) return { status: 200, body: user(m[1]) };
  switch (path) {
    case '/api/orders': return { status: 200, body: orders };
    case '/api/profile': return { status: 200, body: { name: 'ann', ssn: '123-45-6789' } };
    case '/api/large': return { status: 200, body: large };
    case '/api/account': return { status: 200, body: { plan: 'pro' } };
    case '/api/notes': return { status: 201, body: { id: 7 } };
    default: return { status: 200, body: { ok: true } };
  }
}

let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;

/** Staging: /api/users/2 is gone, /api/orders changed shape, /api/profile's masked field changed type (not a change: it was masked), /api/slow is slow. */
interface Arrival { at: number; method: string; url: string; headers: IncomingMessage['headers']; body: string }
const arrivals: Arrival[] = [];
let staging: Server;
let stagingPort = 0;
/** How long staging's /api/slow takes; 0 (at once) except in the test of timeouts, so no other run waits on it. */
let slowMs = 0;
/** Requests staging holds now, and the most it held at once; every route waits `allMs` when set. */
let inFlight = 0;
let maxInFlight = 0;
let allMs = 0;

function startStaging(): Promise<void> {
  staging = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const at = performance.now();
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    res.on('close', () => { inFlight--; });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({ at, method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const path = req.url!.split('?')[0];
      let { status, body } = production(req);
      if (path === '/api/users/2') { status = 404; body = { error: 'not found' }; }
      if (path === '/api/orders') body = orders.map((o) => ({ id: String(o.id), total: o.total, currency: 'EUR', items: o.items }));
      if (path === '/api/profile') body = { name: 'ann', ssn: 123456789 };
      const answer = () => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
      const wait = path === '/api/slow' && slowMs > 0 ? slowMs : allMs;
      if (wait > 0) setTimeout(answer, wait).unref();
      else answer();
    });
  });
  return new Promise((r) => staging.listen(0, '127.0.0.1', () => { stagingPort = (staging.address() as { port: number }).port; r(); }));
}

replay.before(async () => {
  await startStaging();
  upstream = await startRecordingUpstream({}, (req, res) => {
    const { status, body } = production(req);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  proxyPort = await freePort();
  const cpPort = await freePort();
  configFile = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upstream.port}
  listen: 127.0.0.1:${proxyPort}
control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
data_dir: ${work.path}/data
capture: { max_body_bytes: 1kb }
rules:
  - name: all
    match: { path: /** }
    redact: { headers: [authorization], query_params: [token] }
  - name: profile
    match: { path: /api/profile }
    redact: { json_fields: [$.ssn] }
  - name: payments
    match: { path: /api/payments }
    redact: { json_fields: [$.card.number] }
  - name: uploads
    match: { path: /api/upload }
    restrict: [request_body]
  - name: internal
    match: { path: /api/internal/** }
    restrict: [headers]
`);
  const cp = `http://127.0.0.1:${cpPort}`;
  const vigil = await startVigil(configFile, cp, { cwd: work.path });
  try {
    const json = ['Content-Type', 'application/json'];
    const traffic: [string, string, string[], string?][] = [
      ['GET', '/api/users/1', []], ['GET', '/api/users/2', []], ['GET', '/api/users/3', []],
      ['GET', '/api/orders', []], ['GET', '/api/orders?page=2&tag=a&tag=b', []],
      ['GET', '/api/profile', []], ['GET', '/api/large', []], ['GET', '/api/slow', []],
      ['GET', '/api/account', ['Authorization', 'Bearer live-secret']],
      ['GET', '/api/search?q=shoes&token=live-token', []],
      ['GET', '/api/internal/ping', []],
      ['POST', '/api/notes', json, JSON.stringify({ text: 'hello', tags: ['a'] })],
      ['POST', '/api/payments', json, JSON.stringify({ amount: 5, card: { number: '4111111111111111' } })],
      ['POST', '/api/upload', json, JSON.stringify({ file: 'x' })],
      ['POST', '/api/big', json, JSON.stringify({ blob: 'y'.repeat(4096) })],
      ['POST', '/api/blob', ['Content-Type', 'application/octet-stream'], 'binary-bytes'],
    ];
    for (const [method, path, headers, body] of traffic) {
      const res = await sendThrough(proxyPort, method, path, headers, body);
      assert.ok(res.status < 300, `${method} ${path}: ${res.status}`);
    }
    for (const [, path] of traffic) await waitForRecord(cp, TOKEN, path.split('?')[0]);
  } finally {
    await vigil.stop('SIGTERM');
  }
});

replay.after(() => { upstream?.close(); staging?.closeAllConnections(); staging?.close(); work.cleanup(); });

const run = (...args: string[]) => runVigil(['replay', '-config', configFile, ...args], { cwd: work.path });
const stagingUrl = () => `http://127.0.0.1:${stagingPort}`;
const routeOf = (report: Report, route: string) => report.routes.find((r) => r.route === route)!;

replay('safe methods by default: statuses diffed per route, unsafe and redacted records skipped by reason, a timeout is an error', async () => {
  arrivals.length = 0;
  slowMs = 5000;
  const { code, stdout, stderr } = await run('--target', stagingUrl(), '--format', 'json', '--rate', '100/s', '--timeout', '1500ms')
    .finally(() => { slowMs = 0; });
  assert.is(code, 1, stderr);
  const report = JSON.parse(stdout) as Report;
  assert.is(report.records, 16);
  assert.equal(report.skipped, {
    unsafe_method: 5, upstream_error: 0, truncated: 0, redacted_value: 2, restricted_headers: 1, dropped_body: 0, restricted_body: 0,
  });
  assert.is(report.replayed, 8);
  assert.is(report.changed, 1);
  assert.is(report.errors, 1);
  assert.is(report.same, 6);
  assert.is(report.failure, '1 changed, more than --max-changed 0');
  const users = routeOf(report, 'GET /api/users/{id}');
  assert.equal([users.replayed, users.same, users.changed, users.errors, users.skipped], [3, 2, 1, 0, 0]);
  assert.is(users.changes.length, 1);
  const change = users.changes[0];
  assert.is(change.change, 'status 200 → 404');
  assert.is(change.example.path, '/api/users/2');
  assert.equal([change.example.stored_status, change.example.status], [200, 404]);
  assert.match(change.example.record, /^[0-9a-f-]{36}$/);
  const slow = routeOf(report, 'GET /api/slow');
  assert.equal([slow.errors, slow.changes[0].kind], [1, 'timeout']);
  assert.equal(routeOf(report, 'POST /api/notes').skipped_by_reason, { unsafe_method: 1 });
  assert.equal(routeOf(report, 'GET /api/search').skipped_by_reason, { redacted_value: 1 });
  assert.equal(routeOf(report, 'GET /api/account').skipped_by_reason, { redacted_value: 1 });
  assert.equal(routeOf(report, 'GET /api/internal/ping').skipped_by_reason, { restricted_headers: 1 });
  // Only safe methods reached staging, the query as stored, no hop-by-hop header and no Host copied from the record.
  assert.ok(arrivals.every((a) => a.method === 'GET'));
  assert.equal(arrivals.map((a) => a.url).filter((u) => u.startsWith('/api/orders')).sort(), ['/api/orders', '/api/orders?page=2&tag=a&tag=b']);
  assert.ok(arrivals.every((a) => a.headers.host === `127.0.0.1:${stagingPort}`));
  assert.not.ok(arrivals.some((a) => a.url.includes('REDACTED') || JSON.stringify(a.headers).includes('REDACTED')));
});

replay('--diff shape: changed keys and types are reported with their JSON paths; a masked field never is', async () => {
  const { code, stdout } = await run('--target', stagingUrl(), '--format', 'json', '--rate', '100/s', '--diff', 'shape');
  assert.is(code, 1);
  const report = JSON.parse(stdout) as Report;
  assert.is(report.changed, 3);
  const orderRow = routeOf(report, 'GET /api/orders');
  assert.equal([orderRow.replayed, orderRow.changed], [2, 2]);
  const shape = orderRow.changes.find((c) => c.kind === 'shape')!;
  assert.is(shape.count, 2);
  assert.equal(shape.example.shape, ['added $[*].currency (string)', '$[*].id: number → string']);
  assert.equal([shape.example.stored_status, shape.example.status], [200, 200]);
  // /api/profile's ssn is stored masked: staging's number there is no change. /api/large was cut at capture: no shape.
  assert.equal(routeOf(report, 'GET /api/profile').same, 1);
  assert.equal(routeOf(report, 'GET /api/large').same, 1);
  assert.is(report.shape_checked, 4); // users/1, users/3, profile, slow
});

replay('--methods widens the replay: restricted, truncated, redacted and dropped bodies are skipped; --header replaces a masked header', async () => {
  arrivals.length = 0;
  const { code, stdout } = await run('--target', stagingUrl(), '--format', 'json', '--rate', '100/s',
    '--methods', 'get,post', '--header', 'Authorization: Bearer staging-token', '--header', 'X-Replay: 1', '--max-changed', '5');
  assert.is(code, 0, stdout);
  const report = JSON.parse(stdout) as Report;
  assert.equal(report.skipped, {
    unsafe_method: 0, upstream_error: 0, truncated: 1, redacted_value: 2, restricted_headers: 1, dropped_body: 1, restricted_body: 1,
  });
  assert.equal(routeOf(report, 'POST /api/upload').skipped_by_reason, { restricted_body: 1 });
  assert.equal(routeOf(report, 'POST /api/big').skipped_by_reason, { truncated: 1 });
  assert.equal(routeOf(report, 'POST /api/payments').skipped_by_reason, { redacted_value: 1 });
  assert.equal(routeOf(report, 'POST /api/blob').skipped_by_reason, { dropped_body: 1 });
  assert.equal(routeOf(report, 'GET /api/search').skipped_by_reason, { redacted_value: 1 });
  assert.is(report.replayed, 10);
  const notes = arrivals.find((a) => a.url === '/api/notes')!;
  assert.equal(JSON.parse(notes.body), { text: 'hello', tags: ['a'] });
  assert.is(notes.headers['content-type'], 'application/json');
  assert.is(notes.headers['content-length'], String(Buffer.byteLength(notes.body)));
  assert.is(arrivals.find((a) => a.url === '/api/account')!.headers.authorization, 'Bearer staging-token');
  assert.ok(arrivals.every((a) => a.headers['x-replay'] === '1'));
  assert.is(routeOf(report, 'GET /api/account').same, 1);
});

replay('--concurrency bounds the requests in flight', async () => {
  maxInFlight = 0;
  allMs = 300;
  const { code } = await run('--target', stagingUrl(), '--format', 'json', '--rate', '1000/s', '--concurrency', '2', '--max-changed', '100%')
    .finally(() => { allMs = 0; });
  assert.is(code, 0);
  assert.is(maxInFlight, 2);
});

replay('--rate spaces the requests at staging', async () => {
  arrivals.length = 0;
  const { code, stdout } = await run('--target', stagingUrl(), '--format', 'json', '--rate', '10/s', '--concurrency', '4',
    '--max-changed', '100%');
  assert.is(code, 0, stdout);
  assert.is(arrivals.length, 8);
  const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  // 10/s is one request every 100 ms. Loosely (a new connection delays one arrival, so two may land close): no three
  // requests within 100 ms, and the span at least 7 × 80 ms.
  const spans = times.slice(2).map((t, i) => t - times[i]);
  assert.ok(Math.min(...spans) >= 100, `gaps ${gaps.map((g) => g.toFixed(0)).join(',')}`);
  assert.ok(times[times.length - 1] - times[0] >= 560, `span ${(times[times.length - 1] - times[0]).toFixed(0)} ms`);
});

replay('the live upstream and the gateway are refused without --force, however the host is spelled', async () => {
  for (const target of [`http://127.0.0.1:${upstream.port}`, `http://localhost:${upstream.port}/`, `http://localhost:${proxyPort}`]) {
    const r = await run('--target', target, '--format', 'json');
    assert.is(r.code, 2, `${target}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /--force/);
    assert.is(r.stdout, '');
  }
  const before = upstream.received.length;
  // Against the upstream itself every answer is the stored one: nothing changed, exit 0.
  const forced = await run('--target', `http://localhost:${upstream.port}`, '--force', '--format', 'json', '--rate', '100/s', '--diff', 'shape');
  assert.is(forced.code, 0, forced.stdout + forced.stderr);
  const report = JSON.parse(forced.stdout) as Report;
  assert.equal([report.replayed, report.same, report.changed, report.errors], [8, 8, 0, 0]);
  assert.is(upstream.received.length - before, 8);
});

replay('the live upstream is refused in every spelling: IPv4-mapped IPv6, trailing dots, loopback forms; it receives nothing', async () => {
  const before = upstream.received.length;
  const up = upstream.port;
  const targets = [
    `http://[::ffff:127.0.0.1]:${up}`, `http://[::ffff:7f00:1]:${up}/api`, `http://localhost.:${up}`, `http://LOCALHOST.:${up}/`,
    `http://127.1:${up}`, `http://2130706433:${up}`, `http://0x7f.1:${up}`, `http://0177.0.0.1:${up}`, `http://0.0.0.0:${up}`,
    `http://[::]:${up}`, `http://[0:0:0:0:0:0:0:1]:${up}`, `http://app.localhost:${up}`, `https://localhost.:${up}`,
    `http://[::ffff:127.0.0.1]:${proxyPort}`, `http://localhost.:${proxyPort}`,
  ];
  for (const target of targets) {
    const r = await run('--target', target, '--format', 'json', '--rate', '100/s');
    assert.is(r.code, 2, `${target}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, 'VIGIL_ERR_APITOOLS_REPLAY_LIVE_TARGET', target);
    assert.match(r.stderr, /service\.upstream|the gateway itself/, target);
    assert.match(r.stderr, /--force/);
    assert.is(r.stdout, '');
  }
  assert.is(upstream.received.length - before, 0, 'the live upstream received nothing');
  // Forced, the trailing-dot name goes where the guard resolved it (this machine), though the resolver may not know it.
  const forced = await run('--target', `http://localhost.:${up}`, '--force', '--format', 'json', '--rate', '100/s');
  assert.is(forced.code, 0, forced.stdout + forced.stderr);
  assert.is((JSON.parse(forced.stdout) as Report).same, 8);
  assert.is(upstream.received.length - before, 8);
});

replay('exit codes: --max-changed as a count and a percentage, a target that answers nothing, usage errors', async () => {
  const base = ['--target', stagingUrl(), '--rate', '100/s', '--format', 'json', '--diff', 'shape'];
  assert.is((await run(...base, '--max-changed', '2')).code, 1);
  // 3 of 8 compared changed (37.5%): over 30%, under 40%.
  const pct = await run(...base, '--max-changed', '30%');
  assert.is(pct.code, 1);
  assert.match((JSON.parse(pct.stdout) as Report).failure!, /3 of 8 compared changed \(37\.5%\)/);
  assert.is((await run(...base, '--max-changed', '40%')).code, 0);
  // --limit reads the newest records: the last three sent were POSTs, skipped by default; nothing sent, nothing failed.
  const limited = await run('--target', stagingUrl(), '--limit', '3', '--since', '1h', '--format', 'json');
  assert.is(limited.code, 0);
  const limitedReport = JSON.parse(limited.stdout) as Report;
  assert.equal([limitedReport.records, limitedReport.replayed, limitedReport.skipped.unsafe_method], [3, 0, 3]);
  assert.equal(limitedReport.routes.map((r) => r.route), ['POST /api/big', 'POST /api/blob', 'POST /api/upload']);
  const dead = await run('--target', `http://127.0.0.1:${await freePort()}`, '--rate', '100/s', '--format', 'json');
  assert.is(dead.code, 1);
  const deadReport = JSON.parse(dead.stdout) as Report;
  assert.equal([deadReport.errors, deadReport.replayed], [8, 8]);
  assert.is(routeOf(deadReport, 'GET /api/users/{id}').changes[0].kind, 'connection_error');
  assert.match(deadReport.failure!, /answered none of the 8/);
  // Each bad value is covered by the unit tests (replay-options); here, that the command line reaches them.
  for (const bad of [[], ['--target', stagingUrl(), '--rate', 'fast'], ['--target', stagingUrl(), '--no-such-flag']]) {
    const r = await run(...bad);
    assert.is(r.code, 2, `${bad.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /Usage: vigil replay/);
  }
});

replay('text and markdown: the route table, one example per change, the skip reasons', async () => {
  const text = await run('--target', stagingUrl(), '--rate', '100/s', '--diff', 'shape');
  assert.is(text.code, 1);
  assert.match(text.stdout, /ROUTE\s+REPLAYED\s+SAME\s+CHANGED\s+ERRORS\s+SKIPPED/);
  assert.match(text.stdout, /GET \/api\/users\/\{id\}\s+3\s+2\s+1\s+0\s+0/);
  assert.match(text.stdout, /status 200 → 404\s+×1/);
  assert.match(text.stdout, /\$\[\*\]\.id: number → string/);
  assert.match(text.stdout, /unsafe_method\s+5/);
  assert.match(text.stdout, /FAILED: 3 changed, more than --max-changed 0/);
  const md = await run('--target', stagingUrl(), '--rate', '100/s', '--format', 'markdown');
  assert.match(md.stdout, /^### vigil replay: ❌/);
  assert.match(md.stdout, /\| GET \/api\/users\/\{id\} \| 3 \| 2 \| 1 \| 0 \| 0 \|/);
  assert.match(md.stdout, /\| `redacted_value` \| 2 \|/);
});

replay.run();
