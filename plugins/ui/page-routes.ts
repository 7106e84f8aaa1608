// The dashboard's files: `/assets/<name>` (hashed, immutable, public) and index.html at `/` and at every page of
// the front end (history routing), behind the session: a visitor without one is sent to the login form.
import { BINARY_BODY, HTML_BODY, NO_BODY, nonJsonBody, type HttpRoutes, type RouteContext } from '@vigil/plugin-sdk';
import type { BuiltUi } from './built-ui.js';
import { chooseEncoding, type Encoding } from './content-encoding.js';
import type { SettingsStore } from './display-settings.js';
import { assetNotFound } from './errors.js';
import { IndexPage } from './index-page.js';
import { IMMUTABLE, PAGE_HEADERS, REVALIDATE } from './page-headers.js';

/** Sends the smallest stored form the client accepts, with the headers that say which one it is. */
function sendForms(ctx: RouteContext, forms: Partial<Record<Encoding, Buffer>> & { identity: Buffer }): Buffer {
  const sizes = Object.fromEntries(Object.entries(forms).map(([k, v]) => [k, v.length])) as Record<Encoding, number>;
  const coding = chooseEncoding(ctx.headers['accept-encoding'], sizes);
  if (coding !== 'identity') ctx.set('Content-Encoding', coding);
  // Caches must keep one copy per encoding: a gzip copy must never reach a client that asked for none.
  ctx.set('Vary', 'Accept-Encoding');
  return forms[coding]!;
}

function setPageHeaders(ctx: RouteContext): void {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value);
}

export function registerPageRoutes(http: HttpRoutes, ui: BuiltUi, settings: SettingsStore): void {
  http.route({
    method: 'GET', path: '/assets/:file', auth: 'none', tags: ['ui'],
    summary: 'A file of the web UI (content-hashed name; cached for a year)',
    description: 'Public: the login form needs its stylesheet before any session exists, and no file holds data. br or gzip when the client accepts them.',
    response: BINARY_BODY,
    handler(ctx) {
      const asset = ui.assets.get(ctx.params.file);
      if (!asset) throw assetNotFound(ctx.params.file);
      setPageHeaders(ctx);
      ctx.set('Cache-Control', IMMUTABLE);
      ctx.type = asset.contentType;
      ctx.body = sendForms(ctx, asset.forms);
      return undefined;
    },
  });

  // Browsers ask for /favicon.ico on pages that name no icon (the login form, JSON opened in a tab).
  const favicon = ui.manifest.static['favicon.svg'] && ui.assets.get(ui.manifest.static['favicon.svg'].replace(/^\/assets\//, ''));
  if (favicon) {
    http.route({
      method: 'GET', path: '/favicon.ico', auth: 'none', tags: ['ui'],
      summary: 'The dashboard\'s icon (SVG)',
      response: nonJsonBody('image/svg+xml', 'The icon.'),
      handler(ctx) {
        setPageHeaders(ctx);
        ctx.set('Cache-Control', 'public, max-age=86400');
        ctx.type = favicon.contentType;
        ctx.body = sendForms(ctx, favicon.forms);
        return undefined;
      },
    });
  }

  const index = new IndexPage(ui.indexTemplate);
  const page = async (ctx: RouteContext): Promise<undefined> => {
    const rendered = index.render(await settings.read());
    setPageHeaders(ctx);
    ctx.set('Cache-Control', REVALIDATE);
    ctx.set('ETag', rendered.etag);
    if (ctx.headers['if-none-match'] === rendered.etag) {
      ctx.status = 304;
      ctx.body = '';
      return undefined;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = sendForms(ctx, rendered.forms);
    return undefined;
  };
  const paths = ['/', ...ui.manifest.segments.flatMap((s) => [`/${s}`, `/${s}/*rest`])];
  for (const path of paths) {
    http.route({
      // Any signed-in user gets the page, also one with roles in some projects only: each read it makes checks its own.
      method: 'GET', path, tags: ['ui'], loginRedirect: true, role: 'signed-in',
      summary: path === '/' ? 'The dashboard (HTML)' : `The dashboard's pages under /${path.split('/')[1]} (HTML)`,
      description: 'Needs the session cookie; without one the browser is sent to /login, which brings it back here. 304 when ' +
        'If-None-Match names the current page.',
      responses: { 200: HTML_BODY, 304: NO_BODY },
      handler: page,
    });
  }
}
