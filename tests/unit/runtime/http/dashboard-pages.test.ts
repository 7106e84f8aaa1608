// What the control plane gives a plugin that serves HTML pages: a login redirect instead of a 401, the stylesheet of
// the login form, and a CSP on every response.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HTML_BODY } from '@vigil/plugin-sdk';
import { login, startControlPlane, type Harness } from './control-plane-harness.js';

const page = (cp: Harness['cp']): void => {
  cp.forPlugin('pages').route({ response: HTML_BODY,
    method: 'GET', path: '/app/:view', summary: 'A page', loginRedirect: true,
    handler(ctx) { ctx.type = 'text/html; charset=utf-8'; ctx.body = '<!doctype html><p>app</p>'; return undefined; },
  });
};

test('a loginRedirect page without a session answers 302 to /login with the path and query as next', async () => {
  const h = await startControlPlane({ register: page });
  try {
    const res = await h.get('/app/orders?range=1h&q=a%20b');
    assert.is(res.status, 302);
    assert.is(res.headers.get('location'), `/login?next=${encodeURIComponent('/app/orders?range=1h&q=a%20b')}`);
    assert.is(res.headers.get('cache-control'), 'no-store');
    // The login form takes that next back.
    const form = await (await h.get(res.headers.get('location')!)).text();
    assert.match(form, /name="next" value="\/app\/orders\?range=1h&amp;q=a%20b"/);
  } finally {
    await h.close();
  }
});

test('a loginRedirect page: a session opens it; a stale cookie is cleared on the way to the login form', async () => {
  const h = await startControlPlane({ register: page });
  try {
    const cookie = await login(h);
    const ok = await h.get('/app/x', { headers: { cookie } });
    assert.is(ok.status, 200);
    assert.is(await ok.text(), '<!doctype html><p>app</p>');
    const stale = await h.get('/app/x', { headers: { cookie: `${cookie.slice(0, -4)}AAAA` } });
    assert.is(stale.status, 302);
    assert.match(stale.headers.getSetCookie().join('\n'), /vigil_session=;.*Max-Age=0/i);
    // A script with a wrong bearer token still gets the 401 (and it counts): a redirect is for people.
    const bearer = await h.get('/app/x', { headers: { authorization: 'Bearer wrong' } });
    assert.is(bearer.status, 401);
  } finally {
    await h.close();
  }
});

test('loginRedirect is refused on anything but a GET with the dashboard auth', async () => {
  const h = await startControlPlane({ listenNow: false });
  try {
    const routes = h.cp.forPlugin('pages');
    assert.throws(() => routes.route({ response: {}, method: 'POST', path: '/p', summary: 's', loginRedirect: true, handler: () => ({}) }), /loginRedirect is for pages/);
    assert.throws(() => routes.route({ response: {}, method: 'GET', path: '/q', auth: 'none', summary: 's', loginRedirect: true, handler: () => ({}) }), /loginRedirect is for pages/);
  } finally {
    await h.close();
  }
});

test('the login form links the stylesheet a plugin gave, and only a path on this server', async () => {
  const h = await startControlPlane({ listenNow: false });
  try {
    const routes = h.cp.forPlugin('pages');
    for (const bad of ['https://cdn.example/x.css', '//cdn.example/x.css', '/\\cdn.example', 'x.css', '/a.css" onload="x', '']) {
      assert.throws(() => routes.pageStylesheet(bad), /must be a path on this server/, bad);
    }
    await h.cp.listen();
    assert.not.match(await (await h.get('/login')).text(), /<link/);
    routes.pageStylesheet('/assets/login-AB12.css');
    const html = await (await h.get('/login')).text();
    assert.match(html, /<link rel="stylesheet" href="\/assets\/login-AB12\.css">/);
    assert.match(html, /<body class="login-page">/);
  } finally {
    await h.close();
  }
});

test('every response carries a CSP that allows nothing unless the route sets its own', async () => {
  const h = await startControlPlane({ register: page });
  try {
    for (const path of ['/api/health', '/api', '/nowhere', '/app/x']) {
      const res = await h.get(path);
      assert.match(res.headers.get('content-security-policy') ?? '', /^default-src 'none'; frame-ancestors 'none'/, path);
      assert.is(res.headers.get('x-content-type-options'), 'nosniff', path);
      assert.is(res.headers.get('referrer-policy'), 'no-referrer', path);
    }
    assert.match((await h.get('/login')).headers.get('content-security-policy') ?? '', /^default-src 'self'/);
  } finally {
    await h.close();
  }
});

test.run();
