import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';
import { login, openSocket, startControlPlane, TOKEN, type Harness } from './control-plane-harness.js';

const echo = (cp: Harness['cp']): void => {
  cp.forPlugin('terminal').websocket({
    path: '/api/terminal/ws',
    summary: 'Echo terminal',
    handler(socket, _req, principal) {
      socket.send(JSON.stringify({ hello: principal?.scheme ?? null }));
      socket.on('message', (data) => socket.send(`echo:${String(data)}`));
    },
  });
};

const wsUrl = (h: Harness, path = '/api/terminal/ws'): string => h.url.replace(/^http/, 'ws') + path;

test('same origin and the session cookie: the socket opens and talks to the plugin handler', async () => {
  const h = await startControlPlane({ register: echo });
  try {
    const cookie = await login(h);
    const { ws, status, next } = await openSocket(wsUrl(h), { origin: h.url, cookie });
    assert.is(status, undefined, `refused with ${status}`);
    assert.is(await next(), JSON.stringify({ hello: 'dashboard' }));
    ws!.send('ls');
    assert.is(await next(), 'echo:ls');
    const metrics = parseExposition(await (await h.get('/metrics')).text());
    assert.equal(samplesOf(metrics, 'vigil_control_plane_open_websockets', { route: '/api/terminal/ws' })[0]?.value, 1);
    ws!.close();
  } finally {
    await h.close();
  }
});

test('a socket opened with a session is closed (1008) when the session ends; one opened with the token stays', async () => {
  const h = await startControlPlane({ register: echo });
  try {
    const cookie = await login(h);
    const mine = await openSocket(wsUrl(h), { origin: h.url, cookie });
    const token = await openSocket(wsUrl(h), { origin: h.url, authorization: `Bearer ${TOKEN}` });
    await mine.next();
    await token.next();
    const closed = new Promise<number>((resolve) => mine.ws!.once('close', (code) => resolve(code)));
    const res = await h.bearer('/api/sessions', { method: 'DELETE' });
    assert.equal(await res.json(), { ended: 1 });
    assert.is(await closed, 1008);
    token.ws!.send('still here');
    assert.is(await token.next(), 'echo:still here');
    assert.is((await openSocket(wsUrl(h), { origin: h.url, cookie })).status, 401, 'reopened with the ended session');
    token.ws!.close();
  } finally {
    await h.close();
  }
});

test('a foreign or missing Origin is refused with 403 before the upgrade, even with a valid cookie', async () => {
  const h = await startControlPlane({ register: echo });
  try {
    const cookie = await login(h);
    for (const origin of ['http://evil.example', h.url.replace('127.0.0.1', 'localhost.evil.example'), 'null']) {
      const refused = await openSocket(wsUrl(h), { origin, cookie });
      assert.is(refused.status, 403, origin);
      assert.is(JSON.parse(refused.body!).error.code, 'VIGIL_ERR_HTTP_FORBIDDEN_ORIGIN');
    }
    const noOrigin = await openSocket(wsUrl(h), { cookie });
    assert.is(noOrigin.status, 403);
  } finally {
    await h.close();
  }
});

test('without credentials 401, with a wrong token 401 (counted), with the bearer token it opens', async () => {
  const h = await startControlPlane({ register: echo });
  try {
    assert.is((await openSocket(wsUrl(h), { origin: h.url })).status, 401);
    assert.is((await openSocket(wsUrl(h), { origin: h.url, authorization: 'Bearer wrong' })).status, 401);
    const { ws } = await openSocket(wsUrl(h), { origin: h.url, authorization: `Bearer ${TOKEN}` });
    assert.ok(ws, 'bearer-authenticated upgrade refused');
    ws!.close();
    const metrics = parseExposition(await (await h.get('/metrics')).text());
    assert.equal(samplesOf(metrics, 'vigil_auth_failures_total', { scheme: 'dashboard' })[0]?.value, 1);
    assert.equal(samplesOf(metrics, 'vigil_control_plane_websocket_upgrades_total', { status: '403' }), []);
    assert.equal(samplesOf(metrics, 'vigil_control_plane_websocket_upgrades_total', { status: '401' })[0]?.value, 2);
  } finally {
    await h.close();
  }
});

test('an unknown websocket path is 404, and a locked-out address gets 429', async () => {
  const h = await startControlPlane({ register: echo, lockout: { maxFailures: 1, windowMs: 60_000 } });
  try {
    assert.is((await openSocket(wsUrl(h, '/api/nope/ws'), { origin: h.url })).status, 404);
    await (await h.get('/api', { headers: { authorization: 'Bearer wrong' } })).arrayBuffer();
    assert.is((await openSocket(wsUrl(h), { origin: h.url, authorization: `Bearer ${TOKEN}` })).status, 429);
  } finally {
    await h.close();
  }
});

test('close() closes open sockets with 1001 and a throwing handler is a plugin error', async () => {
  const h = await startControlPlane({
    register: (cp) => {
      echo(cp);
      cp.forPlugin('broken').websocket({ path: '/api/broken/ws', summary: 'Throws', handler() { throw new Error('no pty'); } });
    },
  });
  const cookie = await login(h);
  const broken = await openSocket(wsUrl(h, '/api/broken/ws'), { origin: h.url, cookie });
  const brokenCode = await new Promise<number>((resolve) => broken.ws!.once('close', (code) => resolve(code)));
  assert.is(brokenCode, 1011);
  assert.is(h.pluginErrors[0]?.plugin, 'broken');
  const { ws } = await openSocket(wsUrl(h), { origin: h.url, cookie });
  const closed = new Promise<number>((resolve) => ws!.once('close', (code) => resolve(code)));
  await h.close();
  assert.is(await closed, 1001);
});

test('two plugins on one websocket path: the registration error names both', async () => {
  const h = await startControlPlane({ register: echo, listenNow: false });
  try {
    let message = '';
    try {
      h.cp.forPlugin('other').websocket({ path: '/api/terminal/ws', summary: 'Mine', handler() {} });
    } catch (e) { message = (e as Error).message; }
    assert.match(message, /plugin "other"/);
    assert.match(message, /plugin "terminal"/);
  } finally {
    await h.close();
  }
});

const openEcho = (cp: Harness['cp']): void => {
  echo(cp);
  cp.forPlugin('public').websocket({ path: '/api/public/ws', auth: 'none', summary: 'Open echo', handler(socket) { socket.send('open'); } });
};

test('DNS rebinding: an upgrade whose Host is not allowed gets 421, even when its Origin matches that Host', async () => {
  const h = await startControlPlane({ register: openEcho });
  try {
    const port = new URL(h.url).port;
    const cookie = await login(h);
    for (const host of [`evil.example:${port}`, `localhost.evil.example:${port}`, `10.0.0.1:${port}`]) {
      for (const path of ['/api/public/ws', '/api/terminal/ws', '/api/nope/ws']) {
        const refused = await openSocket(wsUrl(h, path), { host, origin: `http://${host}`, cookie });
        assert.is(refused.status, 421, `${host} ${path}`);
        assert.is(JSON.parse(refused.body!).error.code, 'VIGIL_ERR_HTTP_HOST_NOT_ALLOWED');
      }
    }
    const { ws } = await openSocket(wsUrl(h, '/api/public/ws'), { host: `localhost:${port}`, origin: `http://localhost:${port}` });
    assert.ok(ws, 'an allowed Host with its own origin must open');
    ws!.close();
  } finally {
    await h.close();
  }
});

test('an upgrade needs a same-origin Origin even where no credentials are needed, and fetch metadata must agree', async () => {
  const h = await startControlPlane({ register: openEcho });
  try {
    const port = new URL(h.url).port;
    for (const headers of <Record<string, string>[]>[{ origin: 'http://evil.example' }, {}, { origin: 'null' }, { origin: `http://127.0.0.1:${Number(port) + 1}` },
      { origin: h.url.replace('http:', 'https:') }, { origin: h.url, 'sec-fetch-site': 'same-site' }, { origin: h.url, 'sec-fetch-site': 'cross-site' }]) {
      const refused = await openSocket(wsUrl(h, '/api/public/ws'), headers);
      assert.is(refused.status, 403, JSON.stringify(headers));
    }
    const { ws } = await openSocket(wsUrl(h, '/api/public/ws'), { origin: h.url, 'sec-fetch-site': 'same-origin' });
    assert.ok(ws);
    ws!.close();
  } finally {
    await h.close();
  }
});

test('a cross-origin upgrade with a wrong token is refused before the token is looked at: nothing counted', async () => {
  const h = await startControlPlane({ register: echo, lockout: { maxFailures: 1, windowMs: 60_000 } });
  try {
    for (let i = 0; i < 5; i++) {
      assert.is((await openSocket(wsUrl(h), { origin: 'http://evil.example', authorization: 'Bearer wrong' })).status, 403);
    }
    const { ws } = await openSocket(wsUrl(h), { origin: h.url, authorization: `Bearer ${TOKEN}` });
    assert.ok(ws, 'the address must not be locked');
    ws!.close();
  } finally {
    await h.close();
  }
});

test.run();
