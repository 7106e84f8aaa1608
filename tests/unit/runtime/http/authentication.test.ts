import { HttpError, type AuthPrincipal } from '@vigil/plugin-sdk';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';
import { waitFor } from '../../../support/net.js';
import { errorOf, login, startControlPlane, TOKEN, type Harness } from './control-plane-harness.js';

const whoAmI = (cp: Harness['cp']): void => {
  cp.forPlugin('hello').route({ method: 'GET', path: '/api/hello', summary: 'Who am I', handler: (ctx) => ({ auth: ctx.state.auth }) });
};

test('no credentials: 401 JSON with WWW-Authenticate; the right bearer token: 200 with the dashboard principal', async () => {
  const h = await startControlPlane({ register: whoAmI });
  try {
    let res = await h.get('/api/hello');
    assert.is(res.status, 401);
    assert.is(res.headers.get('www-authenticate'), 'Bearer realm="vigil"');
    assert.is((await errorOf(res)).code, 'VIGIL_ERR_HTTP_UNAUTHORIZED');
    res = await h.bearer('/api/hello');
    assert.is(res.status, 200);
    assert.equal(await res.json(), { auth: { scheme: 'dashboard', subject: 'token' } });
    res = await h.get('/api/hello', { headers: { authorization: `Bearer ${TOKEN}x` } });
    assert.is(res.status, 401);
    assert.is((await errorOf(res)).message, 'wrong dashboard token');
  } finally {
    await h.close();
  }
});

test('the session cookie from /?token= authenticates; a forged or altered cookie is 401 and cleared', async () => {
  const h = await startControlPlane({ register: whoAmI });
  try {
    const cookie = await login(h);
    let res = await h.get('/api/hello', { headers: { cookie } });
    assert.is(res.status, 200);
    const body = (await res.json()) as { auth: AuthPrincipal };
    assert.is(body.auth.scheme, 'dashboard');
    assert.match(String(body.auth.subject), /^session:/);

    const [name, value] = cookie.split('=');
    const flipped = value.slice(0, 10) + (value[10] === 'A' ? 'B' : 'A') + value.slice(11);
    for (const forged of [`${name}=${flipped}`, `${name}=${TOKEN}`, `${name}=v1.garbage`]) {
      res = await h.get('/api/hello', { headers: { cookie: forged } });
      assert.is(res.status, 401, forged);
      assert.ok(res.headers.getSetCookie().some((c) => c.startsWith('vigil_session=;') && c.includes('Max-Age=0')), 'stale cookie not cleared');
      await res.arrayBuffer();
    }
    const metrics = parseExposition(await (await h.get('/metrics')).text());
    assert.equal(samplesOf(metrics, 'vigil_auth_failures_total', { scheme: 'dashboard' })[0]?.value, 3);
  } finally {
    await h.close();
  }
});

test('a session signed before the token changed is refused: the key covers the token hash', async () => {
  const { hashToken } = await import('../../../../runtime/http/index.js');
  const { randomBytes } = await import('node:crypto');
  const secret = randomBytes(32);
  const before = await startControlPlane({ register: whoAmI, sessionSecret: secret });
  const cookie = await login(before);
  await before.close();
  const same = await startControlPlane({ register: whoAmI, sessionSecret: secret });
  const rotated = await startControlPlane({ register: whoAmI, sessionSecret: secret, tokenHash: hashToken('a-new-token-value') });
  try {
    assert.is((await same.get('/api/hello', { headers: { cookie } })).status, 200, 'same secret and token must accept the session');
    assert.is((await rotated.get('/api/hello', { headers: { cookie } })).status, 401);
  } finally {
    await same.close();
    await rotated.close();
  }
});

test('25 bad tokens in a row get 429 with Retry-After, and the good token is refused while locked', async () => {
  const h = await startControlPlane({ register: whoAmI });
  try {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 25; i++) {
      last = await h.get('/api/hello', { headers: { authorization: `Bearer guess-${i}` } });
      statuses.push(last.status);
      if (i < 24) await last.arrayBuffer();
    }
    assert.equal(statuses.slice(0, 20), new Array(20).fill(401));
    assert.equal(statuses.slice(20), [429, 429, 429, 429, 429]);
    const retryAfter = Number(last!.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 600, `Retry-After ${retryAfter}`);
    assert.is((await errorOf(last!)).code, 'VIGIL_ERR_HTTP_LOCKED_OUT');
    const good = await h.bearer('/api/hello');
    assert.is(good.status, 429);
    assert.ok(Number(good.headers.get('retry-after')) > 0);
    await good.arrayBuffer();
    assert.is((await h.get(`/?token=${TOKEN}`)).status, 429, 'the token exchange must be locked too');
    assert.is((await h.get('/api/health')).status, 200, 'unauthenticated routes stay available');
    const metrics = parseExposition(await (await h.get('/metrics')).text());
    assert.equal(samplesOf(metrics, 'vigil_auth_lockouts_total')[0]?.value, 1);
    assert.equal(samplesOf(metrics, 'vigil_auth_failures_total', { scheme: 'dashboard' })[0]?.value, 20);
  } finally {
    await h.close();
  }
});

test('the lockout count and window are configurable; after the window the good token works again', async () => {
  // The window is short so the test can watch it pass, and long enough that a loaded machine still sees the lock.
  const h = await startControlPlane({ register: whoAmI, lockout: { maxFailures: 3, windowMs: 3000 } });
  try {
    for (let i = 0; i < 2; i++) assert.is((await h.get('/api/hello', { headers: { authorization: 'Bearer nope' } })).status, 401);
    assert.is((await h.bearer('/api/hello')).status, 200, 'two failures must not lock with maxFailures 3');
    await (await h.get('/api/hello', { headers: { authorization: 'Bearer nope' } })).arrayBuffer();
    const locked = await h.bearer('/api/hello');
    assert.is(locked.status, 429);
    const retryAfter = Number(locked.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 3, `Retry-After ${retryAfter} for a 3 s window`);
    await waitFor(async () => (await h.bearer('/api/hello')).status === 200, { what: 'the lockout to lift', timeoutMs: 20_000, intervalMs: 200 });
  } finally {
    await h.close();
  }
});

test('requests without credentials are refused but not counted towards the lockout', async () => {
  const h = await startControlPlane({ register: whoAmI, lockout: { maxFailures: 2, windowMs: 60_000 } });
  try {
    for (let i = 0; i < 10; i++) assert.is((await h.get('/api/hello')).status, 401);
    for (let i = 0; i < 5; i++) {
      assert.is((await h.get('/api/hello', { headers: { authorization: 'Basic dXNlcjpwYXNz' } })).status, 401);
    }
    assert.is((await h.bearer('/api/hello')).status, 200);
  } finally {
    await h.close();
  }
});

test('plugin auth schemes: principal passed to the handler, null is 401 uncounted, a thrown 401 counts', async () => {
  const h = await startControlPlane({
    lockout: { maxFailures: 2, windowMs: 60_000 },
    register: (cp) => {
      const llm = cp.forPlugin('llm');
      llm.authScheme('project-key', {
        openapi: { type: 'apiKey', in: 'header', name: 'X-Service-Project-Key' },
        authenticate(ctx) {
          const key = ctx.headers['x-service-project-key'];
          if (key === undefined) return null;
          if (key === 'pk-good') return { scheme: 'project-key', subject: 'project-7' };
          if (key === 'pk-crash') throw new Error('store down');
          throw new HttpError(401, 'LLM_ERR_PROJECT_KEY', 'unknown project key');
        },
      });
      llm.route({ method: 'GET', path: '/api/v1/stats', auth: 'project-key', summary: 'Stats', handler: (ctx) => ({ auth: ctx.state.auth }) });
    },
  });
  try {
    let res = await h.get('/api/v1/stats', { headers: { 'x-service-project-key': 'pk-good' } });
    assert.is(res.status, 200);
    assert.equal(await res.json(), { auth: { scheme: 'project-key', subject: 'project-7' } });
    assert.is((await h.get('/api/v1/stats')).status, 401);
    assert.is((await h.bearer('/api/v1/stats')).status, 401, 'the dashboard token is not a project key');
    res = await h.get('/api/v1/stats', { headers: { 'x-service-project-key': 'pk-crash' } });
    assert.is(res.status, 500);
    assert.is(h.pluginErrors[0]?.plugin, 'llm');
    res = await h.get('/api/v1/stats', { headers: { 'x-service-project-key': 'pk-bad' } });
    assert.is(res.status, 401);
    assert.equal(await errorOf(res), { code: 'LLM_ERR_PROJECT_KEY', message: 'unknown project key' });
    await (await h.get('/api/v1/stats', { headers: { 'x-service-project-key': 'pk-bad2' } })).arrayBuffer();
    assert.is((await h.get('/api/v1/stats', { headers: { 'x-service-project-key': 'pk-good' } })).status, 429);
    const metrics = parseExposition(await (await h.get('/metrics')).text());
    assert.equal(samplesOf(metrics, 'vigil_auth_failures_total', { scheme: 'project-key' })[0]?.value, 2);
  } finally {
    await h.close();
  }
});

test('auth "none" routes answer without credentials', async () => {
  const h = await startControlPlane({
    register: (cp) => cp.forPlugin('open').route({ method: 'GET', path: '/api/open', auth: 'none', summary: 'Open', handler: (ctx) => ({ auth: ctx.state.auth ?? null }) }),
  });
  try {
    const res = await h.get('/api/open');
    assert.is(res.status, 200);
    assert.equal(await res.json(), { auth: null });
  } finally {
    await h.close();
  }
});

test.run();
