import { spawnSync } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { HttpError } from '@vigil/plugin-sdk';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NO_BODY } from '@vigil/plugin-sdk';
import { MetricsRegistry } from '../../../../runtime/metrics/index.js';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';
import { promtoolCheck } from '../../../support/promtool.js';
import { tempDir } from '../../../support/tmp.js';
import { errorOf, startControlPlane, TOKEN } from './control-plane-harness.js';

const codeOf = (fn: () => unknown): string | undefined => {
  try { fn(); } catch (e) { return (e as { code?: string }).code; }
  return undefined;
};

test('GET /api/health answers 200 without auth, and 503 while starting or stopping', async () => {
  let status: 'ok' | 'starting' | 'stopping' = 'starting';
  const h = await startControlPlane({ health: () => ({ status, version: '1.2.3', plugins: ['proxy', 'capture'] }) });
  try {
    let res = await h.get('/api/health');
    assert.is(res.status, 503);
    assert.equal(await res.json(), { status: 'starting', version: '1.2.3', plugins: ['proxy', 'capture'] });
    status = 'ok';
    res = await h.get('/api/health');
    assert.is(res.status, 200);
    assert.equal(await res.json(), { status: 'ok', version: '1.2.3', plugins: ['proxy', 'capture'] });
    status = 'stopping';
    assert.is((await h.get('/api/health')).status, 503);
  } finally {
    await h.close();
  }
});

test('url reports the real port after listening on port 0', async () => {
  const h = await startControlPlane();
  try {
    assert.match(h.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.is.not(h.url, 'http://127.0.0.1:0');
    assert.is((await h.get('/api/health')).status, 200);
  } finally {
    await h.close();
  }
});

test('listen rejects with VIGIL_ERR_HTTP_LISTEN naming the address when the port is taken', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  const h = await startControlPlane({ listen: `127.0.0.1:${port}`, listenNow: false });
  try {
    let err: { code?: string; message: string } | undefined;
    try { await h.cp.listen(); } catch (e) { err = e as typeof err; }
    assert.is(err?.code, 'VIGIL_ERR_HTTP_LISTEN');
    assert.match(err!.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
    assert.match(err!.message, /already in use/);
  } finally {
    await h.close();
    await new Promise((resolve) => blocker.close(resolve));
  }
});

test('close is idempotent and the port stops answering', async () => {
  const h = await startControlPlane();
  const url = h.url;
  await Promise.all([h.close(), h.close()]);
  await h.close();
  let failed = false;
  try { await fetch(`${url}/api/health`); } catch { failed = true; }
  assert.ok(failed, 'the server still answered after close()');
  let err: { code?: string } | undefined;
  try { await h.cp.listen(); } catch (e) { err = e as typeof err; }
  assert.is(err?.code, 'VIGIL_ERR_HTTP_OPTIONS');
});

test('unknown route: 404 JSON; known path with another method: 405 with Allow', async () => {
  const h = await startControlPlane({
    register: (cp) => cp.forPlugin('demo').route({ response: {}, method: 'POST', path: '/api/demo', summary: 'Demo', handler: () => ({ ok: true }) }),
  });
  try {
    let res = await h.bearer('/api/nothing-here');
    assert.is(res.status, 404);
    assert.is((await errorOf(res)).code, 'VIGIL_ERR_HTTP_NOT_FOUND');
    res = await h.bearer('/api/demo', { method: 'DELETE' });
    assert.is(res.status, 405);
    assert.is(res.headers.get('allow'), 'POST');
    const error = await errorOf(res);
    assert.is(error.code, 'VIGIL_ERR_HTTP_METHOD_NOT_ALLOWED');
    assert.match(error.message, /DELETE is not allowed/);
  } finally {
    await h.close();
  }
});

test('a handler throwing a plain error: 500 with a generic JSON message, onPluginError called with the plugin', async () => {
  const h = await startControlPlane({
    register: (cp) => cp.forPlugin('fragile').route({ response: {},
      method: 'GET', path: '/api/fragile', summary: 'Throws', handler: () => { throw new Error('secret detail at /etc/x'); },
    }),
  });
  try {
    const res = await h.bearer('/api/fragile');
    assert.is(res.status, 500);
    const text = await res.text();
    const body = JSON.parse(text);
    assert.is(body.error.code, 'VIGIL_ERR_HTTP_INTERNAL');
    assert.not.match(text, /secret detail/);
    assert.not.match(text, /at .*\.js/);
    assert.is(h.pluginErrors.length, 1);
    assert.is(h.pluginErrors[0].plugin, 'fragile');
    assert.is((h.pluginErrors[0].err as Error).message, 'secret detail at /etc/x');
    assert.ok(h.logs.some((l) => l.level === 'error' && l.fields.plugin === 'fragile'), 'the failure was not logged with the plugin');
  } finally {
    await h.close();
  }
});

test('an HttpError from a handler keeps its status, code and message, and is not a plugin error', async () => {
  const h = await startControlPlane({
    register: (cp) => cp.forPlugin('picky').route({ response: {},
      method: 'GET', path: '/api/picky/:id', summary: 'Not found', handler: (ctx) => { throw new HttpError(404, 'PICKY_ERR_MISSING', `no item ${ctx.params.id}`); },
    }),
  });
  try {
    const res = await h.bearer('/api/picky/42');
    assert.is(res.status, 404);
    assert.equal(await res.json(), { error: { code: 'PICKY_ERR_MISSING', message: 'no item 42' } });
    assert.is(h.pluginErrors.length, 0);
  } finally {
    await h.close();
  }
});

test('an HttpError\'s headers go out with its error response, and headers the handler set before throwing do not', async () => {
  const h = await startControlPlane({
    register: (cp) => cp.forPlugin('busy').route({ response: {},
      method: 'GET', path: '/api/busy', summary: 'Over quota',
      handler: (ctx) => {
        ctx.set('X-Half-Done', 'yes');
        throw new HttpError(429, 'BUSY_ERR_QUOTA', 'over quota', { headers: { 'Retry-After': '120' } });
      },
    }),
  });
  try {
    const res = await h.bearer('/api/busy');
    assert.is(res.status, 429);
    assert.is(res.headers.get('retry-after'), '120');
    assert.is(res.headers.get('x-half-done'), null);
    assert.equal(await res.json(), { error: { code: 'BUSY_ERR_QUOTA', message: 'over quota' } });
  } finally {
    await h.close();
  }
});

test('return values: JSON with the route status; undefined gives 204; a handler-set status wins', async () => {
  const h = await startControlPlane({
    register: (cp) => {
      const r = cp.forPlugin('shapes');
      r.route({ response: {}, method: 'POST', path: '/api/shapes', summary: 'Create', status: 201, handler: () => ({ id: 1 }) });
      r.route({ response: NO_BODY, method: 'DELETE', path: '/api/shapes/:id', summary: 'Delete', handler: () => undefined });
      r.route({ responses: { 418: { type: 'string' } }, method: 'GET', path: '/api/shapes/teapot', summary: 'Teapot', handler: (ctx) => { ctx.status = 418; return 'short and stout'; } });
    },
  });
  try {
    let res = await h.bearer('/api/shapes', { method: 'POST' });
    assert.is(res.status, 201);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(await res.json(), { id: 1 });
    res = await h.bearer('/api/shapes/1', { method: 'DELETE' });
    assert.is(res.status, 204);
    res = await h.bearer('/api/shapes/teapot');
    assert.is(res.status, 418);
    assert.is(await res.json(), 'short and stout');
  } finally {
    await h.close();
  }
});

test('two plugins registering the same method and path: the error names both', async () => {
  const h = await startControlPlane({ listenNow: false });
  try {
    h.cp.forPlugin('first').route({ response: {}, method: 'GET', path: '/api/items/:id', summary: 'One', handler: () => 1 });
    let err: { code?: string; message: string } | undefined;
    try {
      h.cp.forPlugin('second').route({ response: {}, method: 'GET', path: '/api/items/:itemId', summary: 'Two', handler: () => 2 });
    } catch (e) { err = e as typeof err; }
    assert.is(err?.code, 'VIGIL_ERR_HTTP_ROUTE_CONFLICT');
    assert.match(err!.message, /plugin "first"/);
    assert.match(err!.message, /plugin "second"/);
    h.cp.forPlugin('second').route({ response: {}, method: 'POST', path: '/api/items/:id', summary: 'Other method', handler: () => 3 });
    assert.is(codeOf(() => h.cp.forPlugin('x').route({ response: {}, method: 'GET', path: '/metrics', summary: 'Mine', handler: () => 0 })),
      'VIGIL_ERR_HTTP_ROUTE_CONFLICT');
    let bad: { code?: string; message: string } | undefined;
    try {
      h.cp.forPlugin('x').route({ response: {}, method: 'GET', path: '/api/x/:id?', summary: 'Optional id', handler: () => 0 });
    } catch (e) { bad = e as typeof bad; }
    assert.is(bad?.code, 'VIGIL_ERR_HTTP_ROUTE_INVALID');
    assert.match(bad!.message, /plugin "x".*path does not parse/);
    assert.is(codeOf(() => h.cp.forPlugin('control-plane')), 'VIGIL_ERR_HTTP_OPTIONS');
  } finally {
    await h.close();
  }
});

test('a route naming an auth scheme nobody registered fails listen()', async () => {
  const h = await startControlPlane({ listenNow: false });
  try {
    h.cp.forPlugin('lonely').route({ response: {}, method: 'GET', path: '/api/lonely', auth: 'project-key', summary: 'L', handler: () => 1 });
    let err: { code?: string; message: string } | undefined;
    try { await h.cp.listen(); } catch (e) { err = e as typeof err; }
    assert.is(err?.code, 'VIGIL_ERR_HTTP_AUTH_SCHEME_UNKNOWN');
    assert.match(err!.message, /project-key/);
    assert.match(err!.message, /lonely/);
  } finally {
    await h.close();
  }
});

test('/metrics needs no token by default, is Prometheus text, counts requests by route pattern, and passes promtool', async () => {
  const registry = new MetricsRegistry();
  const h = await startControlPlane({
    registry,
    register: (cp) => cp.forPlugin('hello').route({ response: {}, method: 'GET', path: '/api/hello/:name', summary: 'Hi', handler: (ctx) => ({ hi: ctx.params.name }) }),
  });
  try {
    await (await h.bearer('/api/hello/ann')).arrayBuffer();
    await (await h.bearer('/api/hello/bob')).arrayBuffer();
    await (await h.get('/api/hello/eve')).arrayBuffer();
    await (await h.get(`/api/hello/eve`, { headers: { authorization: 'Bearer wrong' } })).arrayBuffer();
    const res = await h.get('/metrics');
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    const parsed = parseExposition(text);
    assert.equal(samplesOf(parsed, 'vigil_control_plane_requests_total', { route: '/api/hello/:name', method: 'GET', status: '200' })[0]?.value, 2);
    assert.equal(samplesOf(parsed, 'vigil_control_plane_requests_total', { route: '/api/hello/:name', status: '401' })[0]?.value, 2);
    assert.not.ok(text.includes('/api/hello/ann'), 'a raw path leaked into a label');
    assert.equal(samplesOf(parsed, 'vigil_control_plane_request_duration_seconds_count', { route: '/api/hello/:name', method: 'GET' })[0]?.value, 4);
    assert.equal(samplesOf(parsed, 'vigil_auth_failures_total', { scheme: 'dashboard' })[0]?.value, 1);
    assert.ok(parsed.type.has('vigil_auth_lockouts_total'));
    const result = promtoolCheck(text);
    if (result) assert.ok(result.ok, result.output);
  } finally {
    await h.close();
  }
});

test('metricsAuth: /metrics needs the dashboard token', async () => {
  const h = await startControlPlane({ metricsAuth: true });
  try {
    assert.is((await h.get('/metrics')).status, 401);
    const res = await h.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.is(res.status, 200);
    assert.match(await res.text(), /# TYPE vigil_control_plane_requests_total counter/);
  } finally {
    await h.close();
  }
});

test('bad options are refused with VIGIL_ERR_HTTP_OPTIONS or VIGIL_ERR_HTTP_LISTEN', async () => {
  const attempt = async (o: Parameters<typeof startControlPlane>[0]): Promise<string | undefined> => {
    try { await (await startControlPlane({ ...o, listenNow: false })).close(); } catch (e) { return (e as { code?: string }).code; }
    return undefined;
  };
  assert.is(await attempt({ tokenHash: 'not-a-hash' }), 'VIGIL_ERR_HTTP_OPTIONS');
  assert.is(await attempt({ bodyLimit: -1 }), 'VIGIL_ERR_HTTP_OPTIONS');
  assert.is(await attempt({ lockout: { maxFailures: 0, windowMs: 1000 } }), 'VIGIL_ERR_HTTP_OPTIONS');
  assert.is(await attempt({ listen: 'nonsense' }), 'VIGIL_ERR_HTTP_LISTEN');
  assert.is(await attempt({ tls: { certFile: '/nonexistent/cert.pem', keyFile: '/nonexistent/key.pem' } }), 'VIGIL_ERR_HTTP_TLS');
});

test('over TLS the url is https and the session cookie is Secure', async () => {
  const dir = tempDir();
  const certFile = join(dir.path, 'cert.pem');
  const keyFile = join(dir.path, 'key.pem');
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile,
    '-days', '1', '-subj', '/CN=127.0.0.1'], { encoding: 'utf8' });
  if (made.status !== 0) {
    dir.cleanup();
    if (process.env.CI) throw new Error(`openssl failed: ${made.stderr}`);
    console.log(`SKIP TLS test: openssl unavailable (${made.error?.message ?? made.stderr})`);
    return;
  }
  const h = await startControlPlane({ tls: { certFile, keyFile } });
  try {
    assert.match(h.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await new Promise<{ status?: number; cookie: string[] }>((resolve, reject) => {
      const req = httpsRequest(`${h.url}/?token=${TOKEN}`, { rejectUnauthorized: false }, (r) => {
        r.resume();
        resolve({ status: r.statusCode, cookie: r.headers['set-cookie'] ?? [] });
      });
      req.on('error', reject);
      req.end();
    });
    assert.is(res.status, 302);
    assert.ok(res.cookie[0]?.split(';').map((a) => a.trim()).includes('Secure'), res.cookie[0]);
  } finally {
    await h.close();
    dir.cleanup();
  }
});

test.run();
