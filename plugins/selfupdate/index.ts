import { definePlugin } from '@vigil/plugin-sdk';
import { selfUpdateConfigSchema, type SelfUpdateConfig } from './config-schema.js';

/**
 * Self-update: the About page's Check for updates (the only request to the network, and only on an owner's press),
 * Update now (a fast-forward of a git checkout or an install of the npm archive, each verified against the release's
 * signed SHA256SUMS before anything changes), and Restart (the new process started detached, or by the service
 * manager). Perch's endpoints: `GET`/`POST /api/perchupdate`, `POST /api/perchrestart`.
 */
export default definePlugin<SelfUpdateConfig>({
  name: 'selfupdate',
  version: '0.1.0',
  configSchema: selfUpdateConfigSchema,
  // The store keeps the audit log every update and restart goes to.
  needs: ['http', 'store'],
  async setup(ctx, config) {
    const { startSelfUpdate } = await import('./start-selfupdate.js');
    return startSelfUpdate(ctx, config);
  },
});
