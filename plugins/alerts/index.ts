import { ConfigValueError, definePlugin, parseDuration } from '@vigil/plugin-sdk';
import { alertsConfigSchema } from './config-schema.js';
import type { AlertsConfig } from './types.js';

/** Problems the schema cannot see: a rule declared twice, a duration that does not parse. */
function checkAlertsConfig(config: AlertsConfig): void {
  const seen = new Map<string, number>();
  for (const [i, rule] of config.rules.entries()) {
    if (seen.has(rule.id!)) throw new ConfigValueError(['rules', i, 'id'], `rule "${rule.id}" is declared twice (also at rules[${seen.get(rule.id!)}])`);
    seen.set(rule.id!, i);
    for (const key of ['window', 'cooldown'] as const) {
      if (rule[key] === undefined) continue;
      try { parseDuration(rule[key]); } catch (err) { throw new ConfigValueError(['rules', i, key], (err as Error).message); }
    }
  }
  for (const key of ['interval', 'history_retention'] as const) {
    try { parseDuration(config[key]); } catch (err) { throw new ConfigValueError([key], (err as Error).message); }
  }
  // Every tick claims every rule in the store: a sub-second interval would spend the store on claims alone.
  if (parseDuration(config.interval) < 1000) throw new ConfigValueError(['interval'], `"${config.interval}" is under the minimum of 1s`);
}

/**
 * The alert engine: rules over the registered sources (the LLM platform's, the gateway's, and any plugin's through
 * the `alerts` service), evaluated every minute once across processes, with cooldown, flapping, the alerting state
 * (on, stopped, snoozed) and the history; notices go to the `channels` plugin. Off unless the config has an `alerts`
 * section.
 */
export default definePlugin<AlertsConfig>({
  name: 'alerts',
  version: '0.1.0',
  configSchema: alertsConfigSchema,
  needs: ['store', 'http', 'jobs'],
  optional: ['llm', 'capture', 'channels'],
  provides: ['alerts'],
  checkConfig: checkAlertsConfig,
  async setup(ctx, config) {
    const { startAlerts } = await import('./start-alerts.js');
    const running = await startAlerts(ctx, config);
    return { start: () => running.start(), stop: () => running.stop() };
  },
});
