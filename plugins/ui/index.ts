import { fileURLToPath } from 'node:url';
import { definePlugin, parseDuration } from '@vigil/plugin-sdk';
import { registerApiRoutes } from './api-routes.js';
import { DEFAULT_UI_DIR, loadBuiltUi } from './built-ui.js';
import { uiConfigSchema, type UiConfig } from './config-schema.js';
import { SettingsStore } from './display-settings.js';
import { EventStream } from './event-stream.js';
import { HomeLayoutStore } from './home-layout.js';
import { uiMigrations } from './migrations.js';
import { registerPageRoutes } from './page-routes.js';

/**
 * The web dashboard: serves the built front end (dist/ui) on the control plane, keeps its display settings, tells it
 * about the installation, and relays the bus topic `ui.event` to open pages over one live stream per page.
 */
export default definePlugin<UiConfig>({
  name: 'ui',
  version: '0.1.0',
  configSchema: uiConfigSchema,
  needs: ['http', 'store'],
  provides: ['ui'],
  async setup(ctx, config) {
    const ui = await loadBuiltUi(fileURLToPath(DEFAULT_UI_DIR));
    await ctx.store.migrate(uiMigrations);
    const settings = new SettingsStore(ctx.store);

    // Other plugins' events reach the bus topic only while a page listens: the relay subscribes with the first
    // stream and leaves with the last, and publishers check hasSubscribers('ui.event') first.
    let unsubscribe: (() => Promise<void>) | undefined;
    const stream: EventStream = new EventStream({
      heartbeatMs: parseDuration(config.heartbeat),
      maxStreams: config.max_streams,
      onFirst() {
        unsubscribe ??= ctx.bus.subscribe('ui.event', (batch) => {
          for (const event of batch) stream.publish(event.topic, event.data);
        }, { queue: 1000 });
      },
      onLast() {
        const off = unsubscribe;
        unsubscribe = undefined;
        void off?.();
      },
      open: ctx.metrics.gauge('vigil_ui_streams_open', { help: 'Live streams open to dashboard pages.' }),
      events: ctx.metrics.counter('vigil_ui_stream_events_total', {
        help: 'Live events by outcome: sent (to one page), dropped (the page read too slowly), invalid (a bad topic name, or data that is not JSON).',
        labelNames: ['outcome'],
      }),
    });

    // Publishers of live topics (the host's 2 s sample) collect only while a page watches their topic.
    ctx.services.provide('ui', { watch: (topic, listener) => stream.watch(topic, ctx.contain(`ui.watch ${topic}`, listener)) });

    registerPageRoutes(ctx.http, ui, settings);
    registerApiRoutes(ctx.http, { runtime: ctx.runtime, manifest: ui.manifest, settings, layouts: new HomeLayoutStore(ctx.store), stream });
    ctx.http.pageStylesheet(ui.manifest.loginStylesheet);

    return {
      /** `heartbeat` and `max_streams` apply at once (SIGHUP); the pages and assets are those of the build. */
      reload(next) {
        const c = next as UiConfig;
        stream.setLimits({ heartbeatMs: parseDuration(c.heartbeat), maxStreams: c.max_streams });
      },
      async stop() {
        // Open streams would hold the control plane's shutdown for its whole grace period.
        stream.close();
        const off = unsubscribe;
        unsubscribe = undefined;
        await off?.();
      },
    };
  },
});
