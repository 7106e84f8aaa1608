import { definePlugin } from '@vigil/plugin-sdk';
import { systoolsConfigSchema, type SystoolsConfig } from './config-schema.js';

/**
 * System tools for developers (Host area): systemd services and timers with start, stop, restart, enable and disable
 * (system units through the privileged helper), the user's crontab read and written back line for line through the
 * real `crontab`, and the SSH keys of ~/.ssh with fingerprints, ed25519 generation and authorized_keys. Every change
 * is confirmed in the page and written to the audit log.
 */
export default definePlugin<SystoolsConfig>({
  name: 'systools',
  version: '0.1.0',
  configSchema: systoolsConfigSchema,
  needs: ['http'],
  optional: ['privilege'],
  async setup(ctx, config) {
    const { startSystools } = await import('./start-systools.js');
    return startSystools(ctx, config);
  },
});
