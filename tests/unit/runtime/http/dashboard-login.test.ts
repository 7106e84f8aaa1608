import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';
import { errorOf, formLogin, sessionCookieOf, startControlPlane, TOKEN, type Harness } from './control-plane-harness.js';

const whoAmI = (cp: Harness['cp']): void => {
  cp.forPlugin('hello').route({ response: {}, method: 'GET', path: '/api/hello', summary: 'Who am I', handler: (ctx) => ({ auth: ctx.state.auth }) });
};

const FORM = 'application/x-www-form-urlencoded';
const SAME_ORIGIN = (h: Harness): Record<string, string> => ({ origin: h.url, 'sec-fetch-site': 'same-origin', 'content-type': FORM });

const post = (h: Harness, fields: Record<string, string> | string, headers: Record<string, string>, path = '/login'): Promise<Response> =>
  h.get(path, { method: 'POST', headers, body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString() });

test('GET /login is a plain HTML form that posts to /login: no script, no inline style, its own CSP', async () => {
  const h = await startControlPlane();
  try {
    const res = await h.get('/login');
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
    assert.is(res.headers.get('cache-control'), 'no-store');
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /form-action 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    // So the form's POST carries our Origin (under no-referrer a browser sends "Origin: null" for form posts).
    assert.is(res.headers.get('referrer-policy'), 'same-origin');
    const html = await res.text();
    assert.match(html, /<form method="post" action="\/login"[ >]/);
    assert.match(html, /<input[^>]+name="token"[^>]+type="password"/);
    assert.not.match(html, /<script|\sstyle=|<style|\son[a-z]+=/i);
  } finally {
    await h.close();
  }
});

test('GET /login?next= carries a same-site path into the form, escaped; anything else becomes /', async () => {
  const h = await startControlPlane();
  try {
    let html = await (await h.get(`/login?next=${encodeURIComponent('/ui/orders?view=open&x="<b>')}`)).text();
    assert.match(html, /name="next" value="\/ui\/orders\?view=open&amp;x=%22%3Cb%3E"/);
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '"><script>x</script>']) {
      html = await (await h.get(`/login?next=${encodeURIComponent(next)}`)).text();
      assert.match(html, /name="next" value="\/"/, next);
      assert.not.match(html, /<script/);
    }
  } finally {
    await h.close();
  }
});

test('POST /login from our own page: 303 to / with the strict session cookie, which authenticates', async () => {
  const h = await startControlPlane({ register: whoAmI });
  try {
    const res = await post(h, { token: TOKEN }, SAME_ORIGIN(h));
    assert.is(res.status, 303);
    assert.is(res.headers.get('location'), '/');
    const setCookie = res.headers.getSetCookie()[0] ?? '';
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    assert.not.ok(setCookie.includes(TOKEN));
    const hello = await h.get('/api/hello', { headers: { cookie: sessionCookieOf(res) } });
    assert.is(hello.status, 200);
    // The browser's own proof is enough when Origin is null (a form under no-referrer) or absent.
    for (const headers of <Record<string, string>[]>[{ 'sec-fetch-site': 'same-origin', origin: 'null' }, { 'sec-fetch-site': 'same-origin' }, { origin: h.url }]) {
      assert.is((await post(h, { token: TOKEN }, { ...headers, 'content-type': FORM })).status, 303, JSON.stringify(headers));
    }
    // A script (curl) sends neither header, and cannot be a page on another site.
    assert.is((await post(h, { token: TOKEN }, { 'content-type': FORM })).status, 303);
    assert.match(await formLogin(h), /^vigil_session=/);
  } finally {
    await h.close();
  }
});

test('POST /login redirects to a same-site next path only, never to another site', async () => {
  const h = await startControlPlane();
  try {
    const target = async (next: string): Promise<string | null> => {
      const res = await post(h, { token: TOKEN, next }, SAME_ORIGIN(h));
      assert.is(res.status, 303, next);
      return res.headers.get('location');
    };
    assert.is(await target('/ui/orders?view=open'), '/ui/orders?view=open');
    for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'http:evil.example', '/\t/evil.example',
      'evil.example', '', `/?token=${TOKEN}`, '/%0d%0aSet-Cookie:x=1']) {
      const location = await target(next);
      assert.ok(location === '/' || (location!.startsWith('/') && !location!.startsWith('//') && !/[\r\n]/.test(location!)), `${JSON.stringify(next)} → ${location}`);
      assert.not.ok(location!.includes(TOKEN));
    }
    assert.is(await target('//evil.example/x'), '/');
  } finally {
    await h.close();
  }
});

test('POST /login from another site is refused 403 without looking at the token: not counted, no cookie', async () => {
  const h = await startControlPlane({ register: whoAmI, lockout: { maxFailures: 1, windowMs: 60_000 } });
  try {
    const shapes: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: `http://localhost:${new URL(h.url).port}` },
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: h.url.replace('http:', 'https:') },
      { 'sec-fetch-site': 'same-origin', origin: 'http://evil.example' },
      { 'sec-fetch-site': 'none' },
      { 'sec-fetch-site': 'CROSS-SITE' },
      // An old browser's form post: no fetch metadata, no Origin, only the page that posted it in Referer.
      { referer: 'http://evil.example/form.html' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null', 'sec-fetch-site': 'none' },
      { origin: 'null', 'sec-fetch-site': 'same-site' },
      { origin: 'http://evil.example', referer: `${h.url}/login` },
      { referer: 'not a url' },
    ];
    for (const headers of shapes) {
      for (const token of ['wrong', TOKEN]) {
        const res = await post(h, { token }, { ...headers, 'content-type': FORM });
        assert.is(res.status, 403, `${JSON.stringify(headers)} with ${token}`);
        assert.equal(res.headers.getSetCookie(), []);
        await res.arrayBuffer();
      }
    }
    assert.is((await h.bearer('/api/hello')).status, 200, 'nothing may have been counted');
  } finally {
    await h.close();
  }
});

test('POST /login with a wrong token: 401, counted towards the lockout, then 429', async () => {
  const h = await startControlPlane({ register: whoAmI, lockout: { maxFailures: 2, windowMs: 60_000 } });
  try {
    let res = await post(h, { token: 'wrong' }, SAME_ORIGIN(h));
    assert.is(res.status, 401);
    assert.is((await errorOf(res)).code, 'VIGIL_ERR_HTTP_UNAUTHORIZED');
    res = await post(h, `token=${encodeURIComponent(TOKEN)}&token=again`, SAME_ORIGIN(h));
    assert.is(res.status, 401, 'two tokens are one wrong answer');
    await res.arrayBuffer();
    res = await post(h, { token: TOKEN }, SAME_ORIGIN(h));
    assert.is(res.status, 429);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
    await res.arrayBuffer();
    assert.is((await h.bearer('/api/hello')).status, 429);
    const metrics = parseExposition(await (await h.get('/metrics')).text());
    assert.equal(samplesOf(metrics, 'vigil_auth_lockouts_total')[0]?.value, 1);
  } finally {
    await h.close();
  }
});

test('POST /login from a browser page gets the form back with the problem, in HTML', async () => {
  const h = await startControlPlane({ lockout: { maxFailures: 5, windowMs: 60_000 } });
  try {
    const res = await post(h, { token: 'wrong', next: '/ui/x' }, { ...SAME_ORIGIN(h), accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    assert.is(res.status, 401);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const html = await res.text();
    assert.match(html, /wrong dashboard token/);
    assert.match(html, /name="next" value="\/ui\/x"/);
    assert.not.match(html, /value="wrong"/);
  } finally {
    await h.close();
  }
});

test('POST /login: an empty token is 400 and not counted; another body type is 415; an oversize body is 413', async () => {
  const h = await startControlPlane({ register: whoAmI, lockout: { maxFailures: 1, windowMs: 60_000 } });
  try {
    let res = await post(h, { token: '' }, SAME_ORIGIN(h));
    assert.is(res.status, 400);
    await res.arrayBuffer();
    res = await post(h, '', SAME_ORIGIN(h));
    assert.is(res.status, 400);
    await res.arrayBuffer();
    res = await post(h, JSON.stringify({ token: TOKEN }), { ...SAME_ORIGIN(h), 'content-type': 'application/json' });
    assert.is(res.status, 415);
    await res.arrayBuffer();
    res = await post(h, { token: 'x'.repeat(20_000) }, SAME_ORIGIN(h));
    assert.is(res.status, 413);
    await res.arrayBuffer();
    assert.is((await h.bearer('/api/hello')).status, 200);
  } finally {
    await h.close();
  }
});

test('POST /logout from our own page clears the cookie and goes to /login; from elsewhere it is refused', async () => {
  const h = await startControlPlane();
  try {
    const cookie = await formLogin(h);
    for (const headers of <Record<string, string>[]>[{ 'sec-fetch-site': 'cross-site' }, { origin: 'http://evil.example' }, {}, { 'sec-fetch-site': 'same-site' }]) {
      const res = await post(h, '', { ...headers, cookie }, '/logout');
      assert.is(res.status, 403, JSON.stringify(headers));
      assert.equal(res.headers.getSetCookie(), []);
      await res.arrayBuffer();
    }
    const res = await post(h, '', { cookie, origin: h.url, 'sec-fetch-site': 'same-origin' }, '/logout');
    assert.is(res.status, 303);
    assert.is(res.headers.get('location'), '/login');
    assert.ok(res.headers.getSetCookie().some((c) => c.startsWith('vigil_session=;') && c.includes('Max-Age=0')));
  } finally {
    await h.close();
  }
});

test.run();
