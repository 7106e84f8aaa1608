import { definePlugin } from '@vigil/plugin-sdk';
import { networkConfigSchema, type NetworkConfig } from './config-schema.js';

/**
 * The Host area's Network and Traffic pages: listening ports with their processes and a checked Stop and Force,
 * the firewall's state and rules, live connections, per-interface rates, and packet captures viewed in place. On
 * when the config has a `network` section; it needs the probes plugin's `host` service (which it turns on), and gives
 * the security overview its `hostNetwork` service (reachable listeners, the firewall).
 */
export default definePlugin<NetworkConfig>({
  name: 'network',
  version: '0.1.0',
  configSchema: networkConfigSchema,
  needs: ['http', 'host'],
  optional: ['privilege'],
  provides: ['hostNetwork'],
  async setup(ctx, config) {
    const { startNetwork } = await import('./start-network.js');
    const running = startNetwork(ctx, config);
    return { stop: () => running.stop() };
  },
});
