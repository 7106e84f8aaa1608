import { hostname } from 'node:os';
import type { PluginContext } from '@vigil/plugin-sdk';
import { registerHealthRoutes } from '../health/health-routes.js';
import { PendingUpdatesCache } from '../health/pending-updates.js';
import { SecurityOverview } from '../security/security-overview.js';
import { registerSecurityRoutes } from '../security/security-routes.js';
import { defaultBuiltins } from './builtin-rules.js';
import { hostDigest } from './host-digest.js';
import { hostSources } from './host-sources.js';
import { registerMonitorRoutes } from './monitor-routes.js';

export interface RunningHostAlerts {
  start(): Promise<void>;
  stop(): void;
}

/**
 * The host's part of the alerts engine: its sources (the five thresholds over the minute samples, the battery, and
 * the custom checks), the five built-in rules with perch's defaults (added once, then the user's), the host digest,
 * and the monitor, custom-rule and health-score routes. The alerts plugin evaluates the rules every minute with
 * every other rule: same channels, cooldown, alerting state and history. Without the alerts plugin only the health
 * score works, and the rule routes say what to turn on.
 */
export function setupHostAlerts(ctx: PluginContext, o: { root: string }): RunningHostAlerts {
  const alerts = ctx.services.find('alerts');
  const removals: (() => void)[] = [];
  const updates = new PendingUpdatesCache();
  if (alerts) {
    for (const source of hostSources(ctx.store, o.root)) removals.push(alerts.registerSource(source));
    removals.push(alerts.registerDigest(hostDigest({ store: ctx.store, alerts, root: o.root, hostname: hostname(), updates: () => updates.get() })));
  }
  registerMonitorRoutes(ctx.http, { alerts: () => alerts, store: ctx.store, root: o.root, now: Date.now });
  // The security overview's serious findings count in the health score too.
  const security = new SecurityOverview({ root: o.root, updates, network: () => ctx.services.find('hostNetwork'), now: Date.now });
  registerSecurityRoutes(ctx.http, security);
  registerHealthRoutes(ctx.http, { root: o.root, updates, now: Date.now, moreFindings: () => security.healthFindings() });
  return {
    async start() {
      await alerts?.ensureManagedRules(defaultBuiltins());
    },
    stop() {
      updates.stop();
      for (const remove of removals.splice(0)) remove();
    },
  };
}
