import { definePlugin } from '@vigil/plugin-sdk';
import { devtoolsConfigSchema, type DevtoolsConfig } from './config-schema.js';

/**
 * Developer tools of the host monitor: the project launcher (package scripts and make targets of a folder under the
 * configured roots, run as jobs with live output, Stop, and a history) and GNOME tweaks read and written through
 * `gsettings`. Every run, stop and setting change is confirmed in the page and written to the audit log.
 */
export default definePlugin<DevtoolsConfig>({
  name: 'devtools',
  version: '0.1.0',
  configSchema: devtoolsConfigSchema,
  needs: ['http', 'store'],
  optional: ['ui'],
  async setup(ctx, config) {
    const { startDevtools } = await import('./start-devtools.js');
    return startDevtools(ctx, config);
  },
});
