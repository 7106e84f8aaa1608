import { HttpError, type AuthPrincipal } from '@vigil/plugin-sdk';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';
import { waitFor } from '../../../support/net.js';
import { errorOf, login, rawRequest, startControlPlane, TOKEN, type Harness } from './control-plane-harness.js';

const whoAmI = (cp: Harness['cp']): void => {
  cp.forPlugin('hello').route({ response: {}, method: 'GET', path: '/api/hello', summary: 'Who am I', handler: (ctx) => ({ auth: ctx.state.auth }) });
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
    assert.equal(await res.json(), { auth: { scheme: 'dashboard', subject: 'token', user: { id: null, email: null, instanceRole: 'owner', projects: {} } } });
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

test('a session made before the token changed is refused, also after the first token returns', async () => {
  const { hashToken } = await import('../../../../runtime/http/index.js');
  const { MemorySessionBackend } = await import('../../../../runtime/http/session-memory.js');
  // One backend for every control plane here, as processes share the store across restarts.
  const sessionBackend = new MemorySessionBackend();
  const before = await startControlPlane({ register: whoAmI, sessionBackend });
  const cookie = await login(before);
  await before.close();
  const same = await startControlPlane({ register: whoAmI, sessionBackend });
  try {
    assert.is((await same.get('/api/hello', { headers: { cookie } })).status, 200, 'a restart with the same token must keep the session');
  } finally {
    await same.close();
  }
  const rotated = await startControlPlane({ register: whoAmI, sessionBackend, tokenHash: hashToken('a-new-token-value') });
  try {
    const res = await rotated.get('/api/hello', { headers: { cookie } });
    assert.is(res.status, 401);
    assert.ok(res.headers.getSetCookie().some((c) => c.startsWith('vigil_session=;')), 'the ended session\'s cookie is cleared');
  } finally {
    await rotated.close();
  }
  const back = await startControlPlane({ register: whoAmI, sessionBackend });
  try {
    assert.is((await back.get('/api/hello', { headers: { cookie } })).status, 401, 'the first token brought its old session back');
    const metrics = parseExposition(await (await back.get('/metrics')).text());
    assert.is(samplesOf(metrics, 'vigil_auth_failures_total', { scheme: 'dashboard' })[0]?.value ?? 0, 0, 'an ended session counted as a failure');
  } finally {
    await back.close();
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
      llm.route({ response: {}, method: 'GET', path: '/api/v1/stats', auth: 'project-key', summary: 'Stats', handler: (ctx) => ({ auth: ctx.state.auth }) });
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
    register: (cp) => cp.forPlugin('open').route({ response: {}, method: 'GET', path: '/api/open', auth: 'none', summary: 'Open', handler: (ctx) => ({ auth: ctx.state.auth ?? null }) }),
  });
  try {
    const res = await h.get('/api/open');
    assert.is(res.status, 200);
    assert.equal(await res.json(), { auth: null });
  } finally {
    await h.close();
  }
});

const counted = async (h: Harness): Promise<{ failures: number; lockouts: number }> => {
  const metrics = parseExposition(await (await h.get('/metrics')).text());
  return {
    failures: samplesOf(metrics, 'vigil_auth_failures_total', { scheme: 'dashboard' })[0]?.value ?? 0,
    lockouts: samplesOf(metrics, 'vigil_auth_lockouts_total')[0]?.value ?? 0,
  };
};

/** What a page on another site can make a browser send: each shape carries a wrong token. */
const CROSS_SITE_SHAPES: { what: string; path: string; headers: Record<string, string> }[] = [
  { what: '<img> of /api/health?token=', path: '/api/health?token=x', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' } },
  { what: 'an old browser\'s <img> of /api/health?token= (no fetch metadata)', path: '/api/health?token=x', headers: {} },
  { what: '<img> of /api/hello?token=', path: '/api/hello?token=x', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' } },
  { what: '<img> of /?token= from a sibling port', path: '/?token=x', headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' } },
  { what: 'an old browser\'s <img> of /?token= with the page in Referer', path: '/?token=x', headers: { referer: 'http://evil.example/page.html' } },
  { what: 'a cross-site link to /?token=', path: '/?token=x', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } },
  { what: 'fetch no-cors of /?token= with a foreign Origin', path: '/?token=x', headers: { origin: 'http://evil.example' } },
  { what: 'a sandboxed frame (Origin: null)', path: '/?token=x', headers: { origin: 'null' } },
  { what: 'an Origin on our host but another port', path: '/?token=x', headers: { origin: 'http://127.0.0.1:1' } },
  { what: 'mixed-case cross-site metadata', path: '/?token=x', headers: { 'sec-fetch-site': 'Cross-Site' } },
  { what: 'a wrong bearer token marked cross-site', path: '/api/hello', headers: { 'sec-fetch-site': 'cross-site', authorization: 'Bearer wrong' } },
  { what: 'a wrong bearer token with a foreign Origin', path: '/api/hello', headers: { origin: 'https://evil.example', authorization: 'Bearer wrong' } },
  { what: 'a wrong bearer token in a cross-site navigation', path: '/api/hello', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', authorization: 'Bearer wrong' } },
  { what: 'a forged session cookie planted by a sibling port', path: '/api/hello', headers: { 'sec-fetch-site': 'same-site', cookie: 'vigil_session=v1.planted' } },
  { what: 'a Referer-only <img> of /?token= from an old browser', path: '/?token=x', headers: { referer: 'https://evil.example/' } },
  { what: 'a sandboxed frame\'s navigation (Origin: null, Sec-Fetch-Site: none)', path: '/?token=x', headers: { origin: 'null', 'sec-fetch-site': 'none' } },
  { what: 'a foreign Origin without fetch metadata on a navigation', path: '/?token=x', headers: { origin: 'http://evil.example', 'sec-fetch-mode': 'navigate' } },
  { what: 'a same-site <img> of /?token= without an Origin', path: '/?token=x', headers: { 'sec-fetch-site': 'same-site' } },
  { what: 'a token in the query of any other path, unmarked', path: '/api/hello?%74oken=x', headers: {} },
  { what: 'a wrong bearer token with only a foreign Referer', path: '/api/hello', headers: { referer: 'http://evil.example/', authorization: 'Bearer wrong' } },
  { what: 'a wrong bearer token with Origin: null', path: '/api/hello', headers: { origin: 'null', authorization: 'Bearer wrong' } },
  { what: 'a forged session cookie, unmarked', path: '/api/hello', headers: { cookie: 'vigil_session=v1.planted' } },
];

test('what a page on another site can send never locks out the valid bearer token, nor counts towards the lockout', async () => {
  const h = await startControlPlane({ register: whoAmI, lockout: { maxFailures: 3, windowMs: 60_000 } });
  try {
    for (const shape of CROSS_SITE_SHAPES) {
      for (let i = 0; i < 20; i++) {
        // node:http sends the headers as given; fetch would replace Sec-Fetch-Mode with its own.
        const res = await rawRequest(h.url, shape.path, { headers: shape.headers });
        assert.ok(res.status >= 400 && res.status < 500 && res.status !== 429, `${shape.what}: ${res.status}`);
        const cookies = [res.headers['set-cookie'] ?? []].flat();
        assert.is(cookies.some((c) => !c.startsWith('vigil_session=;')), false, `${shape.what} set a session cookie`);
      }
      const good = await h.bearer('/api/hello');
      assert.is(good.status, 200, `after 20 × ${shape.what}, the valid bearer token got ${good.status}`);
      await good.arrayBuffer();
    }
    assert.is((await counted(h)).lockouts, 0);
  } finally {
    await h.close();
  }
});

test('a right token sent cross-site is never an accepted login, in the URL or as a bearer token', async () => {
  const h = await startControlPlane({ register: whoAmI });
  try {
    const shapes: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' },
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: h.url.replace('http:', 'https:') },
      { 'sec-fetch-site': 'same-origin', origin: 'http://evil.example' },
    ];
    for (const headers of shapes) {
      const res = await h.get(`/?token=${encodeURIComponent(TOKEN)}`, { headers });
      assert.is(res.status, 403, JSON.stringify(headers));
      assert.is((await errorOf(res)).code, 'VIGIL_ERR_HTTP_CROSS_SITE');
      assert.equal(res.headers.getSetCookie(), [], `a cookie was set for ${JSON.stringify(headers)}`);
      const bearer = await h.bearer('/api/hello', { headers });
      assert.is(bearer.status, 403, `bearer with ${JSON.stringify(headers)}`);
      await bearer.arrayBuffer();
    }
  } finally {
    await h.close();
  }
});

test('a valid session cookie keeps working while the address is locked; the token does not', async () => {
  const h = await startControlPlane({ register: whoAmI, lockout: { maxFailures: 3, windowMs: 60_000 } });
  try {
    const cookie = await login(h);
    for (let i = 0; i < 3; i++) await (await h.get('/api/hello', { headers: { authorization: `Bearer guess-${i}` } })).arrayBuffer();
    assert.is((await h.bearer('/api/hello')).status, 429, 'the token must stay locked: it is what a brute force guesses');
    assert.is((await h.get(`/?token=${encodeURIComponent(TOKEN)}`)).status, 429);
    const res = await h.get('/api/hello', { headers: { cookie } });
    assert.is(res.status, 200, 'a signed session cannot be guessed, so a lock on the address does not refuse it');
    assert.match(String(((await res.json()) as { auth: AuthPrincipal }).auth.subject), /^session:/);
    const none = await h.get('/api/hello');
    assert.is(none.status, 429, 'without a valid session a locked client learns it is locked');
    assert.ok(Number(none.headers.get('retry-after')) > 0);
  } finally {
    await h.close();
  }
});

const things = (cp: Harness['cp']): void => {
  const r = cp.forPlugin('things');
  whoAmI(cp);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    r.route({ response: {}, method, path: '/api/things', summary: `${method} a thing`, handler: () => ({ done: method }) });
  }
};

test('a state-changing request authenticated by the session cookie needs a same-origin proof; a bearer token needs none', async () => {
  const h = await startControlPlane({ register: things });
  try {
    const cookie = await login(h);
    const send = (method: string, headers: Record<string, string>): Promise<Response> =>
      h.get('/api/things', { method, headers: { cookie, ...headers } });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const proof of <Record<string, string>[]>[{ origin: h.url }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'Same-Origin' },
        { 'sec-fetch-site': 'same-origin', origin: 'null' }, { origin: h.url.toUpperCase() }]) {
        const res = await send(method, proof);
        assert.is(res.status, 200, `${method} with ${JSON.stringify(proof)}`);
        assert.equal(await res.json(), { done: method });
      }
      const missing = await send(method, {});
      assert.is(missing.status, 403, `${method} with the cookie and no proof`);
      assert.is((await errorOf(missing)).code, 'VIGIL_ERR_HTTP_FORBIDDEN_ORIGIN');
      for (const headers of <Record<string, string>[]>[{ 'sec-fetch-site': 'none' }, { origin: 'null' }, { 'sec-fetch-site': 'same-site' },
        { origin: h.url.replace(/:\d+$/, ':1') }, { origin: h.url.replace('http:', 'https:') },
        { 'sec-fetch-site': 'same-origin', origin: 'http://evil.example' }]) {
        const res = await send(method, headers);
        assert.is(res.status, 403, `${method} with ${JSON.stringify(headers)}`);
        await res.arrayBuffer();
      }
      const bearer = await h.bearer('/api/things', { method });
      assert.is(bearer.status, 200, `${method} with the bearer token`);
      await bearer.arrayBuffer();
    }
    const repeated = await rawRequest(h.url, '/api/things', {
      method: 'POST', headers: { cookie, 'sec-fetch-site': ['same-origin', 'cross-site'], 'content-length': '0' },
    });
    assert.is(repeated.status, 403, 'repeated Sec-Fetch-Site headers are no proof');
    const repeatedOrigin = await rawRequest(h.url, '/api/things', {
      method: 'POST', headers: { cookie, origin: [h.url, 'http://evil.example'], 'content-length': '0' } as Record<string, string | string[]>,
    });
    assert.is(repeatedOrigin.status, 403, 'repeated Origin headers are no proof');
  } finally {
    await h.close();
  }
});

test('a cross-site request is not authenticated by the session cookie, except a top-level GET navigation', async () => {
  const h = await startControlPlane({ register: things });
  try {
    const cookie = await login(h);
    const subresource = await h.get('/api/hello', { headers: { cookie, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' } });
    assert.is(subresource.status, 403);
    assert.is((await errorOf(subresource)).code, 'VIGIL_ERR_HTTP_CROSS_SITE');
    const navigate = { cookie, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' };
    const navigation = await rawRequest(h.url, '/api/hello', { headers: navigate });
    assert.is(navigation.status, 200, 'a link from a sibling site opens the page like any link');
    const post = await rawRequest(h.url, '/api/things', { method: 'POST', headers: { ...navigate, 'content-length': '0' } });
    assert.is(post.status, 403, 'a cross-site form POST is a navigation too, and must not act');
    const withBearer = await rawRequest(h.url, '/api/hello', { headers: { ...navigate, authorization: `Bearer ${TOKEN}` } });
    assert.is(withBearer.status, 403, 'no browser navigation carries a bearer token');
  } finally {
    await h.close();
  }
});

test.run();
