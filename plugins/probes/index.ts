import { definePlugin } from '@vigil/plugin-sdk';
import { probesConfigSchema, type ProbesConfig } from './config-schema.js';

/**
 * The host monitor: this machine's live metrics read from /proc and /sys, a minute sample kept 24 hours with hourly
 * rollups kept 120 days (in the store), the `host` service the fleet and the home tiles read, and the 2 s live
 * sample while a dashboard page watches. On when the config has a `probes` section, or a plugin that needs `host` is on.
 */
export default definePlugin<ProbesConfig>({
  name: 'probes',
  version: '0.1.0',
  configSchema: probesConfigSchema,
  needs: ['store', 'http', 'jobs', 'workers'],
  optional: ['ui', 'alerts', 'containers'],
  provides: ['host'],
  async setup(ctx, config) {
    const { startProbes } = await import('./start-probes.js');
    const running = await startProbes(ctx, config);
    return { start: () => running.start(), stop: () => running.stop() };
  },
});
