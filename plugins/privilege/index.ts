import { definePlugin } from '@vigil/plugin-sdk';
import { privilegeConfigSchema, type PrivilegeConfig } from './config-schema.js';

/**
 * The privileged helper: the one elevation path for host actions. A fixed set of verbs with validated arguments,
 * each run as an argument list (never a shell string) with a timeout and streamed output; direct as root, else
 * through sudo with the session's password (held in memory for the session) or pkexec with a polkit rule. Every run
 * is audited. Other plugins call it through the `privilege` service.
 */
export default definePlugin<PrivilegeConfig>({
  name: 'privilege',
  version: '0.1.0',
  configSchema: privilegeConfigSchema,
  // The store holds the audit log every run is written to.
  needs: ['http', 'store'],
  provides: ['privilege'],
  async setup(ctx, config) {
    const { startPrivilege } = await import('./start-privilege.js');
    return startPrivilege(ctx, config);
  },
});
