// What the shell asks the server: `/api/ui/shell` at start, the display settings, the home grid's layout, About, and
// the live stream.
import { EVENT_STREAM_BODY, type HttpRoutes, type RuntimeInfo } from '@vigil/plugin-sdk';
import { aboutInfo } from './about-info.js';
import { aboutSchema, shellSchema } from './api-schemas.js';
import type { UiManifest } from './built-ui.js';
import { displaySettingsSchema, type DisplaySettings, type SettingsStore } from './display-settings.js';
import { streamsFull } from './errors.js';
import type { EventStream } from './event-stream.js';
import { LAYOUT_BODY_LIMIT, layoutBodySchema, storedLayoutSchema, type HomeLayout, type HomeLayoutStore } from './home-layout.js';

export interface ApiRouteDeps {
  runtime: RuntimeInfo;
  manifest: UiManifest;
  settings: SettingsStore;
  layouts: HomeLayoutStore;
  stream: EventStream;
}

/** Topics a page may ask for: comma-separated names. */
const TOPICS = '^[a-z][a-z0-9._-]{0,63}(,[a-z][a-z0-9._-]{0,63}){0,31}$';

export function registerApiRoutes(http: HttpRoutes, d: ApiRouteDeps): void {
  http.route({
    method: 'GET', path: '/api/ui/shell', tags: ['ui'], role: 'signed-in',
    summary: 'What the dashboard needs at start: version, areas and whether each is configured, display settings',
    response: shellSchema,
    async handler(ctx) {
      const enabled = new Set(d.runtime.plugins().map((p) => p.name));
      ctx.set('Cache-Control', 'no-store');
      return {
        version: d.runtime.version,
        areas: d.manifest.areas.map((a) => ({ id: a.id, configured: a.requires.some((p) => enabled.has(p)) })),
        plugins: [...enabled],
        config_file: d.runtime.configFile,
        // How to call the CLI where this copy is installed: a clone's or a project's bin is not on the PATH.
        cli: d.runtime.installMethod === 'global npm package' ? 'vigil' : 'npx vigil',
        settings: await d.settings.read(),
      };
    },
  });

  http.route({
    method: 'GET', path: '/api/ui/settings', tags: ['ui'], role: 'signed-in',
    summary: 'The display settings of this installation',
    response: displaySettingsSchema,
    handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return d.settings.read();
    },
  });

  http.route({
    method: 'PUT', path: '/api/ui/settings', tags: ['ui'],
    summary: 'Replaces the display settings of this installation',
    description: 'All three keys. From the dashboard\'s own page (the session cookie needs Origin or Sec-Fetch-Site: same-origin), or with the bearer token. Open pages receive the new settings on the live stream (topic ui.settings).',
    body: displaySettingsSchema,
    bodyLimit: 1024,
    response: displaySettingsSchema,
    async handler(ctx) {
      const next = ctx.request.body as DisplaySettings;
      await d.settings.write(next);
      d.stream.publish('ui.settings', next);
      ctx.set('Cache-Control', 'no-store');
      return next;
    },
  });

  // perch's paths and bodies (GET and POST /api/homelayout, `{layout|null}`), so its users' scripts keep working.
  http.route({
    method: 'GET', path: '/api/homelayout', tags: ['ui'],
    summary: 'The home grid\'s layout: widget order, removed widgets and sizes; null until one is saved',
    response: storedLayoutSchema,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return { layout: await d.layouts.read() };
    },
  });

  http.route({
    method: 'POST', path: '/api/homelayout', tags: ['ui'],
    summary: 'Saves the home grid\'s layout; {"layout": null} restores the default',
    description: 'At most 120 ids in each of order and hidden, and 120 sizes; ids are 1-40 letters, digits, _ or -; ' +
      'a width is 1-6 columns or "full", a height 1-6 rows. Open pages receive it on the live stream (topic ui.homelayout).',
    body: layoutBodySchema,
    bodyLimit: LAYOUT_BODY_LIMIT,
    response: storedLayoutSchema,
    async handler(ctx) {
      const { layout } = ctx.request.body as { layout: HomeLayout | null };
      await d.layouts.write(layout);
      d.stream.publish('ui.homelayout', { layout });
      ctx.set('Cache-Control', 'no-store');
      return { layout };
    },
  });

  http.route({
    method: 'GET', path: '/api/ui/about', tags: ['ui'], role: 'signed-in',
    summary: 'Version, install method, data directory, config file, storage backend, uptime and enabled plugins',
    response: aboutSchema,
    handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return aboutInfo(d.runtime);
    },
  });

  http.route({
    method: 'GET', path: '/api/ui/stream', tags: ['ui'],
    summary: 'The live stream: server-sent events on the topics asked for',
    description: 'text/event-stream. Each event is `event: <topic>` and `data: <JSON>`; a comment every `ui.heartbeat` keeps it open. ' +
      'Topics are published by plugins on the bus topic ui.event ({ topic, data }); ui.settings is the display settings. ' +
      'The dashboard closes it while its tab is hidden.',
    response: EVENT_STREAM_BODY,
    query: {
      type: 'object',
      required: ['topics'],
      properties: { topics: { type: 'string', pattern: TOPICS, description: 'Comma-separated topic names, e.g. gateway.record,ui.settings (at most 32).' } },
    },
    handler(ctx) {
      if (d.stream.full) throw streamsFull(d.stream.max);
      const topics = new Set(String(ctx.query.topics).split(','));
      ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
      ctx.set('Cache-Control', 'no-store');
      // Proxies that buffer responses (nginx) would hold the events back.
      ctx.set('X-Accel-Buffering', 'no');
      ctx.req.socket.setNoDelay(true);
      return d.stream.open(topics, (listener) => ctx.req.once('close', listener));
    },
  });
}
