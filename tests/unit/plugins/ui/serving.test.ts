// How plugins/ui serves the built dashboard: caching, compression, the page's security headers, history routing,
// and the session it needs.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startUi, type UiHarness } from './ui-harness.js';

const s = suite<{ h: UiHarness; html: string; assets: string[] }>('plugins/ui serving');

s.before(async (ctx) => {
  ctx.h = await startUi();
  const res = await ctx.h.page('/', { headers: { 'accept-encoding': 'identity' } });
  ctx.html = await res.text();
  ctx.assets = [...ctx.html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
});
s.after(async ({ h }) => { await h.stop(); });

const CSP_PARTS = ["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'"];

function assertPageHeaders(res: Response, what: string): void {
  const csp = res.headers.get('content-security-policy') ?? '';
  for (const part of CSP_PARTS) assert.ok(csp.includes(part), `${what}: CSP has ${part}: ${csp}`);
  assert.not.match(csp, /unsafe-inline|unsafe-eval/, `${what}: no inline script, no eval`);
  assert.is(res.headers.get('x-content-type-options'), 'nosniff', what);
  assert.is(res.headers.get('referrer-policy'), 'no-referrer', what);
  assert.is(res.headers.get('x-frame-options'), 'DENY', what);
}

s('index.html: one module script, its stylesheet, no inline script or style, revalidated on every load', async ({ h, html, assets }) => {
  const res = await h.page('/');
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  assert.is(res.headers.get('cache-control'), 'no-cache');
  assertPageHeaders(res, 'index.html');
  assert.is([...html.matchAll(/<script\b/g)].length, 1);
  assert.match(html, /<script type="module" src="\/assets\/main-[A-Z0-9]+\.js"><\/script>/);
  assert.match(html, /<link rel="stylesheet" href="\/assets\/main-[A-Z0-9]+\.css">/);
  assert.not.match(html, /<style|\sstyle=|\son[a-z]+=|javascript:/i);
  assert.ok(assets.length >= 3, 'script, stylesheet, favicon and preloads');
});

s('index.html carries the display settings on <html>, so the first paint has the right theme', async ({ h }) => {
  const html = await (await h.page('/')).text();
  assert.match(html, /<html lang="en" data-theme="system" data-simple-mode="false" data-reduce-effects="false">/);
});

s('every page URL of the front end answers with index.html (history routing); other paths keep their 404', async ({ h, html }) => {
  for (const path of ['/gateway', '/gateway/', '/gateway/requests', '/gateway/requests/0190abc', '/gateway/no/such/page', '/settings', '/about', '/llm', '/host/processes?sort=cpu']) {
    const res = await h.page(path, { headers: { 'accept-encoding': 'identity' } });
    assert.is(res.status, 200, path);
    assert.is(await res.text(), html, path);
  }
  for (const path of ['/nowhere', '/gatewayx', '/index.html', '/api/ui/nothing']) {
    const res = await h.page(path);
    assert.is(res.status, 404, path);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/, path);
  }
});

s('index.html has an ETag: an unchanged page revalidates to 304', async ({ h }) => {
  const first = await h.page('/gateway');
  const etag = first.headers.get('etag')!;
  assert.match(etag, /^W\/"[\w-]+"$/);
  const again = await h.page('/gateway', { headers: { 'if-none-match': etag } });
  assert.is(again.status, 304);
  assert.is(await again.text(), '');
});

s('without a session a page sends the browser to the login form, which brings it back', async ({ h }) => {
  for (const path of ['/', '/gateway?range=1h', '/about']) {
    const res = await h.raw(path);
    assert.is(res.status, 302, path);
    assert.is(res.headers.get('location'), `/login?next=${encodeURIComponent(path)}`, path);
  }
  const script = await h.raw('/gateway', { headers: { authorization: `Bearer ${h.rt.token}` } });
  assert.is(script.status, 200, 'the bearer token opens it too');
  const wrong = await h.raw('/gateway', { headers: { authorization: 'Bearer wrong' } });
  assert.is(wrong.status, 401, 'a wrong token is an error for a script, not a redirect');
});

s('assets: public, immutable for a year, typed, with the page headers and Vary', async ({ h, assets }) => {
  for (const path of assets) {
    const res = await h.raw(path);
    assert.is(res.status, 200, path);
    assert.is(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', path);
    assert.is(res.headers.get('vary'), 'Accept-Encoding', path);
    assert.is(res.headers.get('cross-origin-resource-policy'), 'same-origin', path);
    assertPageHeaders(res, path);
    const type = res.headers.get('content-type') ?? '';
    if (path.endsWith('.js')) assert.match(type, /^text\/javascript/, path);
    if (path.endsWith('.css')) assert.match(type, /^text\/css/, path);
    if (path.endsWith('.svg')) assert.match(type, /^image\/svg\+xml/, path);
  }
});

s('compression: the smallest form the client accepts, and each decodes to the same bytes', async ({ h, html }) => {
  const script = /src="(\/assets\/main-[^"]+\.js)"/.exec(html)![1];
  const plain = Buffer.from(await (await h.raw(script, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
  const get = async (accept: string) => {
    // undici's fetch decodes on its own; node:http shows the bytes as sent.
    const { request } = await import('node:http');
    return new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      const req = request(new URL(script, h.rt.url), { headers: { 'accept-encoding': accept } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  };
  const br = await get('gzip, deflate, br');
  assert.is(br.encoding, 'br');
  assert.ok(br.body.length < plain.length / 2);
  assert.equal(brotliDecompressSync(br.body), plain);
  const gz = await get('gzip');
  assert.is(gz.encoding, 'gzip');
  assert.equal(gunzipSync(gz.body), plain);
  assert.ok(br.body.length <= gz.body.length, 'br is the smaller here, so it is chosen when both are accepted');
  const none = await get('br;q=0, gzip;q=0');
  assert.is(none.encoding, undefined);
  assert.equal(none.body, plain);
});

s('an unknown asset is a JSON 404 that says to reload; assets need no session (the login form uses one)', async ({ h }) => {
  const res = await h.raw('/assets/main-OLDHASH.js');
  assert.is(res.status, 404);
  const body = await res.json() as { error: { code: string; message: string } };
  assert.is(body.error.code, 'VIGIL_ERR_UI_ASSET_NOT_FOUND');
  assert.match(body.error.message, /reload/);
  assert.is((await h.raw('/assets/..%2Fmanifest.json')).status, 404);
});

s('the login form links the dashboard\'s login stylesheet, which is served', async ({ h }) => {
  const html = await (await h.raw('/login')).text();
  const href = /<link rel="stylesheet" href="(\/assets\/login-[A-Z0-9]+\.css)">/.exec(html)?.[1];
  assert.ok(href, html);
  const css = await h.raw(href!);
  assert.is(css.status, 200);
  assert.match(await css.text(), /\.login-form/);
});

s('HEAD answers like GET without a body', async ({ h, assets }) => {
  const res = await h.raw(assets[0], { method: 'HEAD' });
  assert.is(res.status, 200);
  assert.is(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.is((await res.arrayBuffer()).byteLength, 0);
});

s.run();
