// Two runtimes in one process (SDK harness, SQLite): "watcher" polls "peer" with a read token of the peer's. The read
// API takes nothing but a read token; the peer's token is stored encrypted and never comes back to the browser; a
// dead or wrong peer is down with its error within the poll's timeout; a peer's oversized or malformed answer is
// refused.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus, hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { freePort, waitFor } from '../../../support/net.js';

let peer: TestRuntime;
let watcher: TestRuntime;
let fake: Server;
let fakeUrl: string;
let fakeAnswer: (res: import('node:http').ServerResponse) => void = (res) => res.end();
/** Every request the fake peer and the redirect's target received: method, path and the token header. */
const seen: { server: string; method: string; path: string; token: string | undefined }[] = [];
let elsewhere: Server;
let elsewhereUrl: string;
let readToken = '';
const TIMEOUT_MS = 1500;

test.before(async () => {
  peer = await startTestRuntime({ plugins: [], config: { fleet: {} } });
  watcher = await startTestRuntime({ plugins: [], config: { fleet: { interval: '2s', timeout: `${TIMEOUT_MS}ms`, max_response_bytes: 4096 } } });
  const record = (server: string) => (req: import('node:http').IncomingMessage) => seen.push({ server, method: req.method!, path: req.url!, token: req.headers['x-fleet-token'] as string | undefined });
  fake = createServer((req, res) => { record('fake')(req); fakeAnswer(res); });
  elsewhere = createServer((req, res) => { record('elsewhere')(req); res.end('{}'); });
  const [port, otherPort] = [await freePort(), await freePort()];
  await new Promise<void>((r) => fake.listen(port, '127.0.0.1', () => r()));
  await new Promise<void>((r) => elsewhere.listen(otherPort, '127.0.0.1', () => r()));
  fakeUrl = `http://127.0.0.1:${port}`;
  elsewhereUrl = `http://127.0.0.1:${otherPort}`;
});
test.after(async () => {
  await watcher?.stop();
  await peer?.stop();
  for (const server of [fake, elsewhere]) {
    server?.closeAllConnections();
    await new Promise<void>((r) => server?.close(() => r()));
  }
});

/** The SQLite database's bytes, its write-ahead log included (a fresh write may be there only). */
const dbBytes = (dir: string): Buffer => Buffer.concat(['vigil.db', 'vigil.db-wal'].map((f) => join(dir, f)).filter(existsSync).map((f) => readFileSync(f)));
const call = async (rt: TestRuntime, path: string, init: RequestInit & { auth?: boolean } = {}) => {
  const res = await rt.fetch(path, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
};
const post = (rt: TestRuntime, path: string, body: unknown) => call(rt, path, { method: 'POST', body: JSON.stringify(body) });
const machine = async (name: string) => (await call(watcher, '/api/fleet')).body.machines.find((m: { name: string }) => m.name === name);

test('a read token is shown once, listed by its hint only, and reads the overview', async () => {
  const created = await post(peer, '/api/fleet/tokens', { label: 'watcher' });
  assert.is(created.status, 201, created.text);
  readToken = created.body.token;
  assert.match(readToken, /^vfr_[A-Za-z0-9_-]{43}$/);
  assert.is(created.body.hint, `••••${readToken.slice(-4)}`);
  const list = await call(peer, '/api/fleet/tokens');
  assert.is(list.body.data.length, 1);
  assert.not.match(list.text, readToken);
  const read = await call(peer, '/api/fleet/peer', { auth: false, headers: { 'x-fleet-token': readToken } });
  assert.is(read.status, 200, read.text);
  assert.is(read.body.hostname, hostname());
  assert.is(read.body.cpu.cores, cpus().length);
});

test('the read API takes only a read token: none, a wrong one, or the dashboard token get 401', async () => {
  assert.is((await call(peer, '/api/fleet/peer', { auth: false })).status, 401);
  const wrong = await call(peer, '/api/fleet/peer', { auth: false, headers: { 'x-fleet-token': `vfr_${'x'.repeat(43)}` } });
  assert.is(wrong.status, 401);
  assert.is(wrong.body.error.code, 'VIGIL_ERR_FLEET_READ_TOKEN');
  assert.is((await call(peer, '/api/fleet/peer')).status, 401, 'the dashboard token is not a read token');
  assert.is((await call(peer, '/api/fleet/peer', { auth: false, headers: { 'x-fleet-token': peer.token } })).status, 401);
});

test('a read token reads nothing but the overview', async () => {
  for (const path of ['/api/fleet', '/api/fleetconfig', '/api/fleet/tokens']) {
    const res = await call(peer, path, { auth: false, headers: { 'x-fleet-token': readToken } });
    assert.is(res.status, 401, `${path} answered ${res.status}`);
  }
});

test('an added peer is polled at once and shows up with its figures; its token never comes back', async () => {
  const added = await post(watcher, '/api/fleet/peers', { name: 'peer', url: `${peer.url}/`, token: readToken });
  assert.is(added.status, 201, added.text);
  assert.equal(added.body, { name: 'peer', url: peer.url, source: 'store', token_hint: `••••${readToken.slice(-4)}` });
  await waitFor(async () => (await machine('peer'))?.status === 'up', { timeoutMs: 5000, what: 'the peer up' });
  const row = await machine('peer');
  assert.is(row.overview.hostname, hostname());
  assert.is(row.overview.cpu.cores, cpus().length);
  assert.is(row.error, null);
  const grid = await call(watcher, '/api/fleet');
  assert.is(grid.body.machines[0].source, 'self');
  assert.is(grid.body.machines[0].status, 'up');
  assert.is(grid.body.machines[0].overview.hostname, hostname());
  for (const path of ['/api/fleet', '/api/fleetconfig', '/api/fleet/tokens']) {
    assert.not.match((await call(watcher, path)).text, readToken, `${path} holds the token`);
  }
});

test('the peer\'s token is encrypted at rest, under a 0600 key', async () => {
  const db = dbBytes(watcher.dataDir);
  assert.ok(db.indexOf(Buffer.from(peer.url)) >= 0, 'the bytes read are not the database that holds the peers');
  assert.is(db.indexOf(Buffer.from(readToken)), -1, 'the token is in the database file in plain text');
  assert.is(db.indexOf(Buffer.from(readToken.slice(4, 20))), -1);
  const key = join(watcher.dataDir, 'plugins', 'fleet', 'secrets.key');
  assert.is(statSync(key).mode & 0o777, 0o600);
  // The peer keeps the read token's digest only.
  assert.is(dbBytes(peer.dataDir).indexOf(Buffer.from(readToken)), -1);
});

test('a revoked read token is refused, and the watcher shows the peer down with the reason', async () => {
  const id = (await call(peer, '/api/fleet/tokens')).body.data[0].id;
  assert.is((await call(peer, `/api/fleet/tokens/${id}`, { method: 'DELETE' })).status, 200);
  assert.is((await call(peer, '/api/fleet/peer', { auth: false, headers: { 'x-fleet-token': readToken } })).status, 401);
  await waitFor(async () => (await machine('peer'))?.status === 'down', { timeoutMs: 6000, what: 'the peer down' });
  const row = await machine('peer');
  assert.match(row.error, /refused the read token/);
  assert.is(row.overview.hostname, hostname(), 'a down machine keeps what it last said');
  assert.ok(row.last_seen_at);
});

test('a peer that never answers is down within the timeout, and the grid answers at once meanwhile', async () => {
  fakeAnswer = () => { /* never answers */ };
  assert.is((await post(watcher, '/api/fleet/peers', { name: 'silent', url: fakeUrl, token: 'some-read-token-0123456789' })).status, 201);
  const started = Date.now();
  const grid = await call(watcher, '/api/fleet');
  assert.ok(Date.now() - started < TIMEOUT_MS, 'the grid waited on a peer');
  assert.is(grid.body.machines.find((m: { name: string }) => m.name === 'silent').status, 'pending');
  await waitFor(async () => (await machine('silent'))?.status === 'down', { timeoutMs: TIMEOUT_MS + 3000, what: 'the silent peer down' });
  const row = await machine('silent');
  assert.match(row.error, new RegExp(`no answer within ${TIMEOUT_MS} ms`));
  assert.ok(row.latency_ms >= TIMEOUT_MS - 50 && row.latency_ms < TIMEOUT_MS + 1500, `took ${row.latency_ms} ms`);
});

test('an answer over max_response_bytes, or not an overview, is refused', async () => {
  await call(watcher, '/api/fleet/peers/silent', { method: 'DELETE' });
  fakeAnswer = (res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ pad: 'x'.repeat(10_000) })); };
  assert.is((await post(watcher, '/api/fleet/peers', { name: 'big', url: fakeUrl, token: 'some-read-token-0123456789' })).status, 201);
  await waitFor(async () => (await machine('big'))?.status === 'down', { timeoutMs: 3000, what: 'the big peer down' });
  assert.match((await machine('big')).error, /larger than 4096 bytes/);
  await call(watcher, '/api/fleet/peers/big', { method: 'DELETE' });
  const real = (await call(watcher, '/api/fleet')).body.machines[0].overview;
  fakeAnswer = (res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ ...real, cpu: { ...real.cpu, percent: 'lots' } })); };
  assert.is((await post(watcher, '/api/fleet/peers', { name: 'odd', url: fakeUrl, token: 'some-read-token-0123456789' })).status, 201);
  await waitFor(async () => (await machine('odd'))?.status === 'down', { timeoutMs: 3000, what: 'the odd peer down' });
  assert.match((await machine('odd')).error, /not a host overview/);
});

test('a chunked answer growing past max_response_bytes is cut off; a redirect is not followed, so the token stays home', async () => {
  await call(watcher, '/api/fleet/peers/odd', { method: 'DELETE' });
  fakeAnswer = (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write('x'.repeat(1024)), 5);
    res.on('close', () => clearInterval(timer));
  };
  assert.is((await post(watcher, '/api/fleet/peers', { name: 'endless', url: fakeUrl, token: 'some-read-token-0123456789' })).status, 201);
  await waitFor(async () => (await machine('endless'))?.status === 'down', { timeoutMs: 3000, what: 'the endless peer down' });
  assert.match((await machine('endless')).error, /larger than 4096 bytes/);
  await call(watcher, '/api/fleet/peers/endless', { method: 'DELETE' });

  fakeAnswer = (res) => { res.writeHead(302, { location: `${elsewhereUrl}/api/fleet/peer` }); res.end(); };
  assert.is((await post(watcher, '/api/fleet/peers', { name: 'moved', url: fakeUrl, token: 'some-read-token-0123456789' })).status, 201);
  await waitFor(async () => (await machine('moved'))?.status === 'down', { timeoutMs: 3000, what: 'the moved peer down' });
  assert.match((await machine('moved')).error, /^302: the peer redirects/);
  assert.is(seen.filter((r) => r.server === 'elsewhere').length, 0, 'the redirect was followed');
  await call(watcher, '/api/fleet/peers/moved', { method: 'DELETE' });
});

test('read-only: every request a peer ever received is a GET of the overview, with the read token', () => {
  const fakes = seen.filter((r) => r.server === 'fake');
  assert.ok(fakes.length >= 4, `${fakes.length} requests`);
  for (const r of fakes) {
    assert.is(r.method, 'GET');
    assert.is(r.path, '/api/fleet/peer');
    assert.is(r.token, 'some-read-token-0123456789');
  }
});

test('bad input: a URL with credentials, a short token, a name twice, an unknown key, an unknown machine', async () => {
  const base = { name: 'x1', url: 'http://user:pw@10.0.0.5:9095', token: 'some-read-token-0123456789' };
  const creds = await post(watcher, '/api/fleet/peers', base);
  assert.is(creds.status, 400);
  assert.is(creds.body.error.code, 'VIGIL_ERR_FLEET_PEER');
  assert.is((await post(watcher, '/api/fleet/peers', { ...base, url: 'http://10.0.0.5:9095', token: 'short' })).status, 400);
  assert.is((await post(watcher, '/api/fleet/peers', { ...base, url: 'http://10.0.0.5:9095', extra: 1 })).status, 400);
  const twice = await post(watcher, '/api/fleet/peers', { name: 'peer', url: 'http://10.0.0.5:9095', token: 'some-read-token-0123456789' });
  assert.is(twice.status, 409);
  assert.is((await call(watcher, '/api/fleet/peers/nobody', { method: 'DELETE' })).status, 404);
  assert.is((await call(peer, '/api/fleet/tokens/nope', { method: 'DELETE' })).status, 404);
});

test('POST /api/fleetconfig replaces the list; a machine given without a token keeps its token', async () => {
  const before = (await call(watcher, '/api/fleetconfig')).body.hosts.find((h: { name: string }) => h.name === 'peer');
  const res = await post(watcher, '/api/fleetconfig', { hosts: [{ name: 'peer', url: peer.url }] });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.hosts, [before]);
  const newWithout = await post(watcher, '/api/fleetconfig', { hosts: [{ name: 'peer', url: peer.url }, { name: 'new', url: 'http://10.0.0.9:9095' }] });
  assert.is(newWithout.status, 400);
  assert.match(newWithout.body.error.message, /hosts\[1\]\.token/);
  assert.is((await call(watcher, '/api/fleetconfig')).body.hosts.length, 1, 'a refused replacement changes nothing');
});

test.run();
