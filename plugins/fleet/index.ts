import { ConfigValueError, definePlugin, parseDuration } from '@vigil/plugin-sdk';
import { fleetConfigSchema } from './config-schema.js';
import { normalisePeerUrl } from './peer-url.js';
import type { FleetConfig } from './types.js';

/** Problems the schema cannot see: a machine named twice, a URL with credentials, durations out of range. */
function checkFleetConfig(config: FleetConfig): void {
  for (const key of ['interval', 'timeout'] as const) {
    try { parseDuration(config[key]); } catch (err) { throw new ConfigValueError([key], (err as Error).message); }
  }
  if (parseDuration(config.interval) < 2000) throw new ConfigValueError(['interval'], `"${config.interval}" is under the minimum of 2s`);
  if (parseDuration(config.timeout) < 100) throw new ConfigValueError(['timeout'], `"${config.timeout}" is under the minimum of 100ms`);
  if (parseDuration(config.timeout) > parseDuration(config.interval)) throw new ConfigValueError(['timeout'], 'the timeout is longer than the interval: one round would run into the next');
  const seen = new Map<string, number>();
  for (const [i, peer] of config.peers.entries()) {
    const first = seen.get(peer.name);
    if (first !== undefined) throw new ConfigValueError(['peers', i, 'name'], `machine "${peer.name}" is declared twice (also at peers[${first}])`);
    seen.set(peer.name, i);
    try { normalisePeerUrl(peer.url); } catch (err) { throw new ConfigValueError(['peers', i, 'url'], (err as Error).message.replace(/^url: /, '')); }
  }
}

/**
 * The fleet view: serves this machine's host overview to other instances holding a read token, and polls the
 * configured instances' overviews into one grid. Read-only both ways. On when the config has a `fleet:` section; it
 * needs the `host` service (the probes plugin).
 */
export default definePlugin<FleetConfig>({
  name: 'fleet',
  version: '0.1.0',
  configSchema: fleetConfigSchema,
  needs: ['store', 'http', 'jobs', 'host'],
  checkConfig: checkFleetConfig,
  async setup(ctx, config) {
    const { startFleet } = await import('./start-fleet.js');
    const running = await startFleet(ctx, config);
    return { stop: () => running.stop(), reload: (next) => running.reload(next as FleetConfig) };
  },
});
