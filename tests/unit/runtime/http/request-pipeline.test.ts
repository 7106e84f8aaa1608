import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { errorOf, rawRequest, sessionCookieOf, startControlPlane, TOKEN, type Harness } from './control-plane-harness.js';

const routes = (cp: Harness['cp']): void => {
  const r = cp.forPlugin('shop');
  r.route({ response: {}, method: 'GET', path: '/ui/orders', summary: 'Orders page', handler: () => ({ page: 'orders' }) });
  r.route({ response: {},
    method: 'GET',
    path: '/api/orders',
    summary: 'List orders',
    query: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        paid: { type: 'boolean' },
        tag: { type: 'array', items: { type: 'string' } },
      },
    },
    handler: (ctx) => ({ query: ctx.query }),
  });
  r.route({ response: {},
    method: 'POST',
    path: '/api/orders',
    summary: 'Create an order',
    bodyLimit: 1024,
    body: {
      type: 'object',
      required: ['items'],
      additionalProperties: false,
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            required: ['sku', 'qty'],
            additionalProperties: false,
            properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
          },
        },
      },
    },
    handler: (ctx) => ({ received: ctx.request.body }),
  });
  r.route({ response: {}, method: 'POST', path: '/api/blobs', summary: 'Upload', rawBody: true, bodyLimit: 1024, handler: (ctx) => ({ bytes: (ctx.request.body as Buffer).length }) });
};

const postJson = (h: Harness, path: string, body: string, contentType = 'application/json'): Promise<Response> =>
  h.bearer(path, { method: 'POST', headers: { 'content-type': contentType }, body });

test('GET /?token= answers 302 to / without the token, keeping the other parameters, and sets a strict session cookie', async () => {
  const h = await startControlPlane({ register: routes });
  try {
    const res = await h.get(`/?view=open&token=${encodeURIComponent(TOKEN)}&sort=asc`);
    assert.is(res.status, 302);
    assert.is(res.headers.get('location'), '/?view=open&sort=asc');
    const setCookie = res.headers.getSetCookie();
    assert.is(setCookie.length, 1);
    const attributes = setCookie[0].split(';').map((s) => s.trim());
    assert.ok(attributes.includes('HttpOnly'), setCookie[0]);
    assert.ok(attributes.includes('SameSite=Strict'), setCookie[0]);
    assert.ok(attributes.includes('Path=/'), setCookie[0]);
    assert.not.ok(attributes.includes('Secure'), 'Secure is for TLS only');
    assert.is(res.headers.get('cache-control'), 'no-store');
    const body = await res.text();
    const everything = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n') + body;
    assert.not.ok(everything.includes(TOKEN), 'the token appears in the 302 response');
    assert.not.ok(everything.includes(encodeURIComponent(TOKEN)), 'the encoded token appears in the 302 response');
    const followed = await h.get('/ui/orders', { headers: { cookie: sessionCookieOf(res) } });
    assert.is(followed.status, 200);
    assert.equal(await followed.json(), { page: 'orders' });
  } finally {
    await h.close();
  }
});

test('GET /?token= works from the address bar (Sec-Fetch-Site: none), from our own pages, and from scripts', async () => {
  const h = await startControlPlane();
  try {
    for (const headers of <Record<string, string>[]>[{ 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }, { 'sec-fetch-site': 'same-origin' }, { origin: h.url }, {}]) {
      const res = await h.get(`/?token=${encodeURIComponent(TOKEN)}`, { headers });
      assert.is(res.status, 302, JSON.stringify(headers));
      assert.is(res.headers.get('location'), '/');
      sessionCookieOf(res);
    }
  } finally {
    await h.close();
  }
});

test('?token= anywhere but / is refused with 400 and never counted, whatever the token', async () => {
  const h = await startControlPlane({ register: routes, lockout: { maxFailures: 1, windowMs: 60_000 } });
  try {
    const paths = ['/api/health', '/ui/orders', '/index.html', '/login', '/api', '/metrics', '/nothing-here', '//', '//evil.example/x'];
    for (const path of paths) {
      for (const token of ['wrong', TOKEN]) {
        const res = await rawRequest(h.url, `${path}?a=1&token=${encodeURIComponent(token)}`);
        assert.is(res.status, 400, `${path} with ${token}`);
        assert.is(JSON.parse(res.body).error.code, 'VIGIL_ERR_HTTP_TOKEN_IN_QUERY');
        assert.is(res.headers['set-cookie'], undefined);
        assert.not.ok(res.headers.location, 'no redirect may come out of a token on another path');
      }
    }
    const encoded = await rawRequest(h.url, '/api/health?%74oken=x');
    assert.is(encoded.status, 400, 'a percent-encoded name is the same parameter');
    assert.is((await h.bearer('/api/orders')).status, 200, 'one counted failure would have locked with maxFailures 1');
    assert.is((await h.get(`/?token=${encodeURIComponent(TOKEN)}`)).status, 302);
  } finally {
    await h.close();
  }
});

test('a wrong ?token= at / is 401 and locks the URL exchange only; a token in the URL of a POST is refused', async () => {
  const h = await startControlPlane({ register: routes, lockout: { maxFailures: 2, windowMs: 60_000 } });
  try {
    let res = await h.get('/?token=wrong');
    assert.is(res.status, 401);
    assert.is(res.headers.getSetCookie().length, 0);
    res = await h.get(`/api/orders?token=${TOKEN}`, { method: 'POST' });
    assert.is(res.status, 400);
    assert.is((await errorOf(res)).code, 'VIGIL_ERR_HTTP_TOKEN_IN_QUERY');
    res = await h.get(`/?token=${TOKEN}`, { method: 'POST' });
    assert.is(res.status, 400);
    await res.arrayBuffer();
    await (await h.get('/?token=wrong-again')).arrayBuffer();
    const locked = await h.get(`/?token=${TOKEN}`);
    assert.is(locked.status, 429);
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    // An old browser's <img> sends no fetch metadata, so a page can spend these failures: they lock the URL
    // exchange, never the bearer token.
    assert.is((await h.bearer('/api/orders')).status, 200);
  } finally {
    await h.close();
  }
});

test('query: coerced to the schema types, defaults applied, arrays from repeated parameters', async () => {
  const h = await startControlPlane({ register: routes });
  try {
    let res = await h.bearer('/api/orders?limit=5&paid=true&tag=a&tag=b');
    assert.is(res.status, 200);
    assert.equal(await res.json(), { query: { limit: 5, paid: true, tag: ['a', 'b'] } });
    res = await h.bearer('/api/orders?tag=solo');
    assert.equal(await res.json(), { query: { limit: 20, tag: ['solo'] } });
  } finally {
    await h.close();
  }
});

test('query: wrong types, out-of-range values and unknown parameters are 400 with the key path', async () => {
  const h = await startControlPlane({ register: routes });
  try {
    const cases: [string, string, RegExp][] = [
      ['/api/orders?limit=ten', 'query.limit', /must be integer/],
      ['/api/orders?limit=500', 'query.limit', /must be <= 100/],
      ['/api/orders?colour=red', 'query.colour', /not allowed/],
    ];
    for (const [path, keyPath, message] of cases) {
      const res = await h.bearer(path);
      assert.is(res.status, 400, path);
      const error = await errorOf(res);
      assert.is(error.code, 'VIGIL_ERR_HTTP_INVALID_QUERY');
      assert.is(error.path, keyPath);
      assert.match(error.message, message);
    }
  } finally {
    await h.close();
  }
});

test('body: valid JSON reaches the handler; malformed JSON and invalid UTF-8 are 400 VIGIL_ERR_HTTP_INVALID_JSON', async () => {
  const h = await startControlPlane({ register: routes });
  try {
    let res = await postJson(h, '/api/orders', JSON.stringify({ items: [{ sku: 'a-1', qty: 2 }] }));
    assert.is(res.status, 200);
    assert.equal(await res.json(), { received: { items: [{ sku: 'a-1', qty: 2 }] } });
    res = await postJson(h, '/api/orders', '{"items": [');
    assert.is(res.status, 400);
    assert.is((await errorOf(res)).code, 'VIGIL_ERR_HTTP_INVALID_JSON');
    res = await h.bearer('/api/orders', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    assert.is(res.status, 400);
    assert.match((await errorOf(res)).message, /UTF-8/);
  } finally {
    await h.close();
  }
});

test('body: schema errors are 400 naming the key path', async () => {
  const h = await startControlPlane({ register: routes });
  try {
    const cases: [unknown, string, RegExp][] = [
      [{ items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 0 }] }, 'body.items[1].qty', /must be >= 1/],
      [{ items: [{ sku: 'a', qty: 1, colour: 'red' }] }, 'body.items[0].colour', /not allowed/],
      [{ items: [{ qty: 1 }] }, 'body.items[0].sku', /is required/],
      [[1, 2], 'body', /must be object/],
    ];
    for (const [body, keyPath, message] of cases) {
      const res = await postJson(h, '/api/orders', JSON.stringify(body));
      assert.is(res.status, 400, JSON.stringify(body));
      const error = await errorOf(res);
      assert.is(error.code, 'VIGIL_ERR_HTTP_INVALID_BODY');
      assert.is(error.path, keyPath);
      assert.match(error.message, message);
    }
    const empty = await h.bearer('/api/orders', { method: 'POST' });
    assert.is(empty.status, 400);
    assert.match((await errorOf(empty)).message, /body is required/);
  } finally {
    await h.close();
  }
});

test('body: a body over the route limit is 413 VIGIL_ERR_HTTP_BODY_TOO_LARGE, announced or chunked', async () => {
  const h = await startControlPlane({ register: routes });
  try {
    const big = JSON.stringify({ items: [{ sku: 'x'.repeat(2000), qty: 1 }] });
    let res = await postJson(h, '/api/orders', big);
    assert.is(res.status, 413);
    assert.is((await errorOf(res)).code, 'VIGIL_ERR_HTTP_BODY_TOO_LARGE');
    const chunks = [Buffer.alloc(600, 0x61), Buffer.alloc(600, 0x62)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    res = await h.bearer('/api/blobs', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    assert.is(res.status, 413);
    assert.is((await errorOf(res)).code, 'VIGIL_ERR_HTTP_BODY_TOO_LARGE');
  } finally {
    await h.close();
  }
});

test('body: another media type on a JSON route is 415; rawBody routes take any bytes', async () => {
  const h = await startControlPlane({ register: routes });
  try {
    let res = await postJson(h, '/api/orders', 'items=1', 'application/x-www-form-urlencoded');
    assert.is(res.status, 415);
    assert.is((await errorOf(res)).code, 'VIGIL_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE');
    res = await h.bearer('/api/blobs', { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: Buffer.from([0, 1, 2, 255]) });
    assert.is(res.status, 200);
    assert.equal(await res.json(), { bytes: 4 });
  } finally {
    await h.close();
  }
});

test('the body of an unauthenticated request is never read: 401 before 413', async () => {
  const h = await startControlPlane({ register: routes });
  try {
    const res = await h.get('/api/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(5000) });
    assert.is(res.status, 401);
  } finally {
    await h.close();
  }
});

test('responses carry nosniff, no-referrer and frame denial headers', async () => {
  const h = await startControlPlane();
  try {
    const res = await h.get('/api/health');
    assert.is(res.headers.get('x-content-type-options'), 'nosniff');
    assert.is(res.headers.get('referrer-policy'), 'no-referrer');
    assert.is(res.headers.get('x-frame-options'), 'DENY');
  } finally {
    await h.close();
  }
});

test.run();
