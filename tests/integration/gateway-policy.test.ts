// The Policy page's API on a real `vigil run`: the rules in force as written, with their place in the file, following
// reloads; "try a request", which stores and exports nothing and answers with the very record the gateway stores for
// the same request; and the control plane's guards on it (cross-site refused, the session cookie only with a
// same-origin proof, a bounded body). What each rule matched comes from real traffic.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, waitFor } from '../support/net.js';
import { fixture } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';
import { sendThrough, waitForRecord } from '../support/gateway-client.js';

const TOKEN = 'policy-test-token';
const test = suite('gateway policy API');
const work = tempDir('vigil-policy-');
let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;
let vigil: VigilProcess;
let proxyPort = 0;
let cp = '';
let file = '';
let startedAt = 0;

const RULES = `rules:
  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant-Id }
    redact: { headers: [Authorization], query_params: [token] }
  - name: payments
    match: { path: /api/payments/**, methods: [POST] }
    redact: { json_fields: [$.card.number], detect: [card_number] }
    wasm: ./echo.wasm
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body]
  - name: search
    match: { path: /api/search }
    sample: 0
    keep_errors: true
`;

/** The config file: `head` lines first (comments move the rules down), then the rules and the rest. */
function writeFile(rules: string, head = ''): string {
  return writeConfig(work.path, `${head}service:
  upstream: http://127.0.0.1:${upstream.port}
  listen: 127.0.0.1:${proxyPort}
${rules}control_plane: { listen: ${cp.slice('http://'.length)}, token: ${TOKEN} }
capture: { batch_delay: 5ms }
exporters:
  - { name: archive, type: file, path: ./export/records.jsonl }
data_dir: ${work.path}/data
`);
}

/** 1-based line of `- name: <rule>` in the config file as it is now. */
const lineOf = (rule: string): number => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.trim() === `- name: ${rule}`) + 1;

const bearer = { authorization: `Bearer ${TOKEN}` };
const get = async <T = any>(path: string): Promise<T> => (await (await fetch(`${cp}${path}`, { headers: bearer })).json()) as T;
const tryRequest = (body: unknown, headers: Record<string, string> = bearer) =>
  fetch(`${cp}/api/gateway/policy/try`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** Sends SIGHUP and waits for the reload's log line (the nth of this process). */
async function reload(nth: number): Promise<string> {
  vigil.proc.kill('SIGHUP');
  const lines = () => vigil.stderr().split('\n').filter((l) => /"msg":"config reload/.test(l));
  await waitFor(() => lines().length >= nth, { what: `reload ${nth} to be logged` });
  return lines()[nth - 1];
}

const exported = (): string[] => {
  const path = join(work.path, 'export', 'records.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
};
/** A record without what only real traffic has: ids, times, the client's own framing headers, the upstream's answer. */
function comparable(record: any): any {
  const { id: _id, time: _time, duration_ms: _d, response_headers: _h, response_body: _b, headers, ...rest } = record;
  const { Host: _host, 'Content-Length': _len, Connection: _c, ...sent } = headers;
  return { ...rest, headers: sent };
}

const storedCount = async (): Promise<number> => (await get<{ data: unknown[] }>('/api/gateway/records?limit=200')).data.length;

test.before(async () => {
  copyFileSync(fixture('wasm', 'echo.wasm'), join(work.path, 'echo.wasm'));
  upstream = await startRecordingUpstream({}, (_q, r) => { r.setHeader('content-type', 'application/json'); r.end('{"ok":true}'); });
  proxyPort = await freePort();
  cp = `http://127.0.0.1:${await freePort()}`;
  file = writeFile(RULES);
  startedAt = Date.now();
  vigil = await startVigil(file, cp, { cwd: work.path });
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  upstream?.close();
  work.cleanup();
});

test('GET /api/gateway/policy: the rules in order, as written, with the file and line of each', async () => {
  const policy = await get('/api/gateway/policy');
  assert.is(policy.config_file, file);
  assert.is(policy.reloads, 0);
  assert.ok(policy.loaded_at >= startedAt && policy.loaded_at <= Date.now(), String(policy.loaded_at));
  assert.equal(policy.rules.map((r: any) => r.name), ['all', 'payments', 'admin', 'search']);
  const [all, payments, admin, search] = policy.rules;
  assert.equal(all, {
    index: 0, name: 'all', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant-Id' },
    redact: { headers: ['Authorization'], query_params: ['token'] },
    source: { file, line: lineOf('all'), column: all.source.column },
  });
  // The module as written (relative to the file), and the digest of the one loaded.
  assert.is(payments.wasm, './echo.wasm');
  assert.is(payments.wasm_sha256, createHash('sha256').update(readFileSync(join(work.path, 'echo.wasm'))).digest('hex'));
  assert.equal(payments.match, { path: '/api/payments/**', methods: ['POST'] });
  assert.equal(admin.restrict, ['request_body', 'response_body']);
  assert.equal([search.sample, search.keep_errors], [0, true]);
  assert.equal(policy.rules.map((r: any) => r.source.line), ['all', 'payments', 'admin', 'search'].map(lineOf));
  const anonymous = await fetch(`${cp}/api/gateway/policy`);
  assert.is(anonymous.status, 401);
});

test('a tried request is answered with exactly the record the gateway stores for it', async () => {
  const headers = { Authorization: 'Bearer live-secret', 'X-Tenant-Id': 'acme', 'Content-Type': 'application/json' };
  const body = JSON.stringify({ card: { number: '4111111111111111', holder: 'Ada' }, note: 'card 5555 5555 5555 4444', amount: 12 });
  const res = await tryRequest({ method: 'post', path: '/API/payments/charge?token=t0p&page=2', headers, body });
  assert.is(res.status, 200);
  const tried = await res.json() as any;
  assert.is(tried.stored, false);
  assert.equal(tried.matched_rules, ['all', 'payments']);
  assert.equal(tried.route, ['/**', '/api/payments/**']);
  assert.equal(tried.restricted, { request_body: [], response_body: [], headers: [] });
  assert.is(tried.redacted, 4, 'the Authorization header, the token parameter, the card number, the card in the note');
  assert.equal(tried.sampling, { rate: 1, rule: null, keep_errors: false, kept: true });
  assert.equal(tried.wasm_not_applied, [{ rule: 'payments', module: './echo.wasm' }]);
  const r = tried.record;
  assert.equal(r.request_body, { card: { number: '[REDACTED]', holder: 'Ada' }, note: 'card [REDACTED]', amount: 12 });
  assert.is(r.headers.Authorization, '[REDACTED]');
  assert.equal(r.query, { token: '[REDACTED]', page: '2' });
  assert.is(r.path, '/API/payments/charge', 'the path as received');
  assert.equal(r.labels, { tenant: 'acme' });
  assert.not.match(JSON.stringify(tried), /4111|5555|live-secret|t0p/);

  // The same request through the gateway: the stored record is the tried one, but for what only traffic has, and
  // the labels the rule's WASM module adds on the telemetry lane, which the try announced it does not run.
  const sent = await sendThrough(proxyPort, 'POST', '/API/payments/charge?token=t0p&page=2', Object.entries(headers).flat(), body);
  assert.is(sent.status, 200);
  const stored = await waitForRecord(cp, TOKEN, '/API/payments/charge');
  assert.equal({ ...comparable(r), labels: undefined }, { ...comparable(stored), labels: undefined });
  assert.equal(Object.keys(stored.labels).sort(), ['fields', 'route', 'tenant'], 'echo.wasm labels what it saw');
  assert.is(stored.labels.tenant, r.labels.tenant);
});

test('on a route no WASM module governs, the tried record is the stored one exactly', async () => {
  const headers = { Authorization: 'Bearer live-secret', 'X-Tenant-Id': 'globex', 'Content-Type': 'application/json' };
  const body = '{"order":17,"items":[{"sku":"A-1"}]}';
  const tried = await (await tryRequest({ method: 'PUT', path: '/api/orders/17?token=abc', headers, body })).json() as any;
  assert.equal(tried.matched_rules, ['all']);
  assert.equal(tried.wasm_not_applied, []);
  const sent = await sendThrough(proxyPort, 'PUT', '/api/orders/17?token=abc', Object.entries(headers).flat(), body);
  assert.is(sent.status, 200);
  const stored = await waitForRecord(cp, TOKEN, '/api/orders/17');
  assert.equal(comparable(tried.record), comparable(stored));
  assert.equal(stored.request_body, { order: 17, items: [{ sku: 'A-1' }] });
});

test('nothing of a try is stored or exported', async () => {
  // Both earlier gateway requests (the charge, the order) are stored and exported by the capture lane and the file
  // exporter after they were answered: wait for both, or a late export of the order would be counted as the next one.
  await waitFor(async () => (await storedCount()) >= 2 && exported().length >= 2, { what: 'the two gateway requests stored and exported' });
  const [records, lines] = [await storedCount(), exported().length];
  for (let i = 0; i < 5; i++) {
    const res = await tryRequest({ method: 'GET', path: `/api/tried/${i}`, headers: { 'X-Tenant-Id': 'tried' } });
    assert.is(res.status, 200);
  }
  // A request through the gateway after the tries: once it is exported, anything a try had published would be too.
  await sendThrough(proxyPort, 'GET', '/api/after-tries', []);
  await waitForRecord(cp, TOKEN, '/api/after-tries');
  await waitFor(() => exported().length === lines + 1, { what: 'the later request exported' });
  assert.is(await storedCount(), records + 1);
  assert.not.ok(exported().some((l) => l.includes('/api/tried/')), 'no try was exported');
  const usage = await get('/api/gateway/policy/usage');
  assert.not.ok(JSON.stringify(usage).includes('/api/tried'), 'no try counts as matched traffic');
});

test('restricted and sampled-out parts: the try says which rule keeps them out', async () => {
  const admin = await (await tryRequest({ method: 'POST', path: '/admin;x/users', body: '{"password":"hunter2"}', response: { status: 201, body: '{"ok":1}' } })).json() as any;
  assert.equal(admin.matched_rules, ['all', 'admin']);
  assert.equal(admin.restricted, { request_body: ['admin'], response_body: ['admin'], headers: [] });
  assert.is(admin.record.request_body, null);
  assert.is(admin.record.response_body, null);
  assert.is(admin.record.status, 201);
  assert.not.match(JSON.stringify(admin), /hunter2/);
  const search = await (await tryRequest({ method: 'GET', path: '/api/search?q=x', response: { status: 200, body: '{"hits":[]}' } })).json() as any;
  assert.equal(search.sampling, { rate: 0, rule: 'search', keep_errors: true, kept: false });
  assert.is(search.record.response_body, null);
  const failed = await (await tryRequest({ method: 'GET', path: '/api/search', response: { status: 503, body: '{"error":"down"}' } })).json() as any;
  assert.equal(failed.sampling.kept, true, 'a failed request keeps its bodies under keep_errors');
  assert.equal(failed.record.response_body, { error: 'down' });
});

test('the try is a write: a page on another site cannot send it, and the session cookie needs a same-origin proof', async () => {
  const cookie = (await fetch(`${cp}/?token=${TOKEN}`, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0];
  const input = { method: 'GET', path: '/x' };
  const code = async (res: Response) => ({ status: res.status, code: ((await res.json()) as any).error?.code });
  // Another site, whatever the credentials.
  assert.equal(await code(await tryRequest(input, { cookie, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' })),
    { status: 403, code: 'VIGIL_ERR_HTTP_CROSS_SITE' });
  assert.equal(await code(await tryRequest(input, { ...bearer, origin: 'http://evil.example' })), { status: 403, code: 'VIGIL_ERR_HTTP_CROSS_SITE' });
  assert.equal(await code(await tryRequest(input, { cookie, 'sec-fetch-site': 'same-site' })), { status: 403, code: 'VIGIL_ERR_HTTP_CROSS_SITE' });
  // The cookie alone is no proof that the dashboard's page sent it.
  assert.equal(await code(await tryRequest(input, { cookie })), { status: 403, code: 'VIGIL_ERR_HTTP_FORBIDDEN_ORIGIN' });
  // What the dashboard's fetch sends.
  const page = await tryRequest(input, { cookie, origin: cp, 'sec-fetch-site': 'same-origin' });
  assert.is(page.status, 200);
  assert.is(((await page.json()) as any).record.path, '/x');
});

test('the body is bounded and checked: 413 past 1 MiB, 400 naming the field, both in the control plane\'s error shape', async () => {
  const big = await tryRequest({ method: 'POST', path: '/api/payments/charge', body: 'x'.repeat(1024 * 1024 + 1) });
  assert.is(big.status, 413);
  const error = (await big.json()) as any;
  assert.equal(Object.keys(error), ['error']);
  assert.is(error.error.code, 'VIGIL_ERR_HTTP_BODY_TOO_LARGE');
  assert.match(error.error.message, /1048576 bytes/);
  const bad = await tryRequest({ method: 'GET /', path: '/x' });
  assert.is(bad.status, 400);
  assert.match(((await bad.json()) as any).error.message, /method/);
  const unknown = await tryRequest({ method: 'GET', path: '/x', cookies: 'a=b' });
  assert.is(unknown.status, 400);
  const relative = await tryRequest({ method: 'GET', path: 'x' });
  assert.is(relative.status, 400);
  const anonymous = await tryRequest({ method: 'GET', path: '/x' }, {});
  assert.is(anonymous.status, 401);
});

test('tries of a megabyte run off the event loop: /api/health and proxied requests answer within 1 s meanwhile; a burst past the queue is a 503', async () => {
  // About 320 KB a body of 12,000 keys, every value a card number the payments rule's detector masks: seconds of
  // governing for each try.
  const body = JSON.stringify(Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`k${i}`, '4111111111111111'])));
  const input = { method: 'POST', path: '/api/payments/charge', headers: { 'content-type': 'application/json' }, body, response: { status: 200, body } };
  let slowest = 0;
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      await (await fetch(`${cp}/api/health`)).arrayBuffer();
      const proxied = await sendThrough(proxyPort, 'GET', '/api/search', [], '');
      assert.is(proxied.status, 200);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const answers = await Promise.all(Array.from({ length: 5 }, () => tryRequest(input)));
  probing = false;
  await probe;
  assert.ok(slowest < 1000, `the slowest health and proxied round took ${Math.round(slowest)} ms`);
  const statuses = answers.map((a) => a.status);
  // One running and two waiting are governed; the rest are told to come back.
  assert.is(statuses.filter((s) => s === 200).length, 3, statuses.join(','));
  assert.is(statuses.filter((s) => s === 503).length, 2, statuses.join(','));
  const busy = answers.find((a) => a.status === 503)!;
  assert.is(busy.headers.get('retry-after'), '5');
  assert.is(((await busy.json()) as any).error.code, 'VIGIL_ERR_GOVERNANCE_TRY_BUSY');
  const done = (await answers.find((a) => a.status === 200)!.json()) as any;
  assert.is(done.stored, false);
  assert.ok(done.redacted >= 12_000, `${done.redacted} values masked`);
});

test('what each rule matched, from the traffic through the gateway', async () => {
  await sendThrough(proxyPort, 'POST', '/admin/users/7', ['content-type', 'application/json'], '{}');
  await sendThrough(proxyPort, 'POST', '/ADMIN/users/8', ['content-type', 'application/json'], '{}');
  await waitForRecord(cp, TOKEN, '/ADMIN/users/8');
  // Both records are stored, but not always in the order sent (a loaded CI machine stored the first one later).
  const usage = await waitFor(async () => {
    const u = await get('/api/gateway/policy/usage?range=24h');
    // The payments rule's route, read below, comes from the same usage: wait for it too.
    const charged = u.rules.find((r: any) => r.rule === 'payments')?.routes?.some((r: any) => r.path === '/API/payments/charge');
    return u.rules.find((r: any) => r.rule === 'admin')?.requests >= 2 && charged ? u : undefined;
  }, { what: 'both admin requests and the charge counted' });
  const admin = usage.rules.find((r: any) => r.rule === 'admin');
  assert.equal(admin, {
    rule: 'admin', requests: 2, other_routes: 0, other_requests: 0,
    routes: [{ method: 'POST', path: '/ADMIN/users/{id}', requests: 1 }, { method: 'POST', path: '/admin/users/{id}', requests: 1 }],
  });
  const payments = usage.rules.find((r: any) => r.rule === 'payments');
  assert.equal(payments.routes, [{ method: 'POST', path: '/API/payments/charge', requests: 1 }]);
});

test('a reload: the new rules, when they were taken, and each rule\'s new line; lines follow the file when the rules stay', async () => {
  const before = await get('/api/gateway/policy');
  file = writeFile(RULES.replace('  - name: search\n    match: { path: /api/search }\n    sample: 0\n    keep_errors: true\n',
    '  - name: search\n    match: { path: /api/search, methods: [GET] }\n    sample: 0.25\n'), '# edited\n# twice\n');
  assert.match(await reload(1), /config reloaded/);
  const after = await get('/api/gateway/policy');
  assert.is(after.reloads, 1);
  assert.ok(after.loaded_at > before.loaded_at);
  const search = after.rules[3];
  assert.equal([search.match, search.sample, search.keep_errors], [{ path: '/api/search', methods: ['GET'] }, 0.25, undefined]);
  assert.equal(after.rules.map((r: any) => r.source.line), before.rules.map((r: any) => r.source.line + 2));
  const tried = await (await tryRequest({ method: 'GET', path: '/api/search' })).json() as any;
  assert.equal(tried.sampling, { rate: 0.25, rule: 'search', keep_errors: false, kept: true }, 'tries follow the reload');

  // Only comments added above: governance keeps its rules (no reload of its own), and still points at them.
  file = writeFile(RULES.replace('  - name: search\n    match: { path: /api/search }\n    sample: 0\n    keep_errors: true\n',
    '  - name: search\n    match: { path: /api/search, methods: [GET] }\n    sample: 0.25\n'), '# edited\n# three\n# times\n');
  assert.match(await reload(2), /nothing changed/);
  const moved = await get('/api/gateway/policy');
  assert.is(moved.reloads, 1);
  assert.equal(moved.rules.map((r: any) => r.source.line), ['all', 'payments', 'admin', 'search'].map(lineOf));
  assert.equal(moved.rules.map((r: any) => r.source.line), after.rules.map((r: any) => r.source.line + 1));
});

test.run();
