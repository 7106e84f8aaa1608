import { ConfigValueError, definePlugin } from '@vigil/plugin-sdk';
import { settingsProblem } from './check-settings.js';
import { channelsConfigSchema } from './config-schema.js';
import type { ChannelsConfig } from './types.js';

/** Problems the schema cannot see: an id declared twice, settings that cannot work. */
function checkChannelsConfig(config: ChannelsConfig): void {
  const seen = new Map<string, number>();
  for (const [i, channel] of (config.targets ?? []).entries()) {
    const first = seen.get(channel.id);
    if (first !== undefined) throw new ConfigValueError(['targets', i, 'id'], `channel "${channel.id}" is declared twice (also at targets[${first}])`);
    seen.set(channel.id, i);
    const problem = settingsProblem(channel);
    if (problem) throw new ConfigValueError(['targets', i, ...problem.path], problem.message);
  }
}

/**
 * Outbound channels (ntfy, Slack, Discord, signed webhook, email, desktop) and the durable queue that delivers to
 * them, as the `channels` service other plugins call. On when the config has a `channels` section, or a plugin
 * that needs the service is on.
 */
export default definePlugin<ChannelsConfig>({
  name: 'channels',
  version: '0.1.0',
  configSchema: channelsConfigSchema,
  needs: ['store', 'http', 'jobs'],
  provides: ['channels'],
  checkConfig: checkChannelsConfig,
  async setup(ctx, config) {
    const { startChannels } = await import('./start-channels.js');
    const running = await startChannels(ctx, config);
    return {
      stop: () => running.stop(),
      reload: (next) => running.reload(next as ChannelsConfig),
    };
  },
});
