import { definePlugin } from '@vigil/plugin-sdk';
import { containersConfigSchema, type ContainersConfig } from './config-schema.js';

/**
 * Containers (Host › Containers): Docker, Podman, nerdctl, LXD/Incus and Kubernetes, found by their sockets,
 * kubeconfig or command. Containers with start, stop, restart and remove (owner, audited), a shell through the web
 * terminal and bounded logs; pods with their logs, read-only. Each environment answers within `containers.timeout` on
 * its own: a hung daemon is reported as unreachable and never delays the others.
 */
export default definePlugin<ContainersConfig>({
  name: 'containers',
  version: '0.1.0',
  configSchema: containersConfigSchema,
  // The store: actions are audited, and the audit log lives there (a runtime without a store keeps none).
  needs: ['http', 'store', 'workers'],
  // The terminal's sources, when it is on: Shell opens a tab on the engine's exec through it.
  optional: ['terminalSources'],
  provides: ['containers'],
  async setup(ctx, config) {
    const { startContainers } = await import('./start-containers.js');
    return startContainers(ctx, config);
  },
});
