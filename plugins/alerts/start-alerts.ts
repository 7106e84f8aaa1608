import { parseDuration, type AlertEventView, type AlertsService, type PluginContext } from '@vigil/plugin-sdk';
import { AlertingStateStore } from './alerting-state.js';
import { DigestLedger } from './digest/digest-ledger.js';
import { registerDigestRoutes, registerPluginDigestRoutes } from './digest/digest-routes.js';
import { LlmDigests } from './digest/llm-digests.js';
import { PluginDigests } from './digest/plugin-digests.js';
import { AlertEngine } from './engine.js';
import { eventViews } from './event-views.js';
import { announcingNotifier } from './live-events.js';
import { managedRulesService } from './managed-rules.js';
import { alertsMigrations } from './migrations.js';
import { QueuedNotifier } from './notices.js';
import { ruleProblem } from './rule-check.js';
import { RuleStore } from './rule-store.js';
import { registerAlertRoutes } from './routes.js';
import { SourceRegistry } from './source-registry.js';
import { gatewaySources } from './sources/gateway-sources.js';
import { llmSources } from './sources/llm-sources.js';
import type { AlertsConfig } from './types.js';
import { catchUpVersions } from './version-catch-up.js';

export interface RunningAlerts {
  start(): void;
  stop(): Promise<void>;
  /** One tick now, for tests and `vigil` commands. */
  engine: AlertEngine;
}

/**
 * Builds the plugin: tables, the config's rules, the source registry (the `alerts` service) with the LLM and gateway
 * sources when those plugins run, the engine on the lease scheduler, notices through a durable queue to the channels,
 * the dashboard API, and the events `GET /api/v1/alert-events` lists.
 */
export async function startAlerts(ctx: PluginContext, config: AlertsConfig): Promise<RunningAlerts> {
  await ctx.store.migrate(alertsMigrations);
  const intervalMs = parseDuration(config.interval);
  const sources = new SourceRegistry();
  const rules = new RuleStore(ctx.store);
  const control = new AlertingStateStore(ctx.store);
  const channels = () => ctx.services.find('channels');
  // The engine is made below; the service's managed-rule methods only run once plugins start, after this returns.
  let engineRef: AlertEngine | undefined;
  const ledger = new DigestLedger(ctx.store);
  const pluginDigests = new PluginDigests({ jobs: ctx.jobs, ledger, channels, targets: config.digests.channels, log: ctx.log });
  const managed = managedRulesService({ rules, sources, control, channels, now: Date.now, engine: () => engineRef! });
  const service: AlertsService = {
    registerSource: (s) => sources.register(s, 'a plugin'), sources: () => sources.list(),
    ...managed,
    registerDigest: (d) => pluginDigests.register(d, 'a plugin'),
  };
  ctx.services.provide('alerts', service);
  const llm = ctx.services.find('llm');
  const capture = ctx.services.find('capture');
  if (llm) for (const s of llmSources(llm)) sources.register(s, 'llm');
  if (capture) for (const s of gatewaySources(capture)) sources.register(s, 'capture');

  await rules.syncConfig(config.rules);
  const dashboardUrl = () => config.dashboard_url ?? ctx.runtime.controlPlaneUrl();
  let notifier: QueuedNotifier | undefined;
  const engine: AlertEngine = new AlertEngine({
    store: ctx.store, rules, control, sources, intervalMs, flappingTransitions: config.flapping_transitions, log: ctx.log,
    notifier: announcingNotifier({ notify: (kind, id) => notifier!.notify(kind, id) }, ctx.bus, (id) => engine.events.get(id), ctx.log),
  });
  engineRef = engine;
  notifier = new QueuedNotifier(ctx.jobs, engine.events, channels, dashboardUrl, ctx.log);

  registerAlertRoutes(ctx.http, { rules, control, engine, sources, channels, now: Date.now });
  const digests = llm && new LlmDigests({
    jobs: ctx.jobs, llm, events: engine.events, ledger, channels, targets: config.digests.channels, dashboardUrl, log: ctx.log,
  });
  if (digests) registerDigestRoutes(ctx.http, digests);
  registerPluginDigestRoutes(ctx.http, pluginDigests);
  const removeEvents = llm?.provideAlertEvents({
    events: async (project, query): Promise<AlertEventView[]> => eventViews(await engine.events.list({ ...query, project }), channels()),
  });

  const firing = ctx.metrics.gauge('rule_firing', { help: 'Each alert rule\'s state at its last evaluation: 1 firing, 0 not.', labelNames: ['rule'] });
  const ticks = ctx.metrics.counter('evaluations_total', { help: 'Rule evaluations, by outcome: ok, error.', labelNames: ['outcome'] });
  const deliveries = ctx.metrics.counter('deliveries_total', { help: 'Alert deliveries seen by this process, by state: pending, delivered, failed.', labelNames: ['state'] });
  const refreshGauge = async () => {
    const states = await engine.states.all();
    for (const rule of await rules.list()) firing.labels(rule.id).set(states.get(rule.id)?.status === 'firing' ? 1 : 0);
  };
  let unsubscribe: (() => Promise<void>)[] = [];
  let gaugeTimer: NodeJS.Timeout | undefined;
  const retentionMs = parseDuration(config.history_retention);

  return {
    engine,
    start() {
      for (const [i, rule] of config.rules.entries()) {
        const problem = ruleProblem(rule, sources);
        if (problem) ctx.log.warn('an alert rule of the config file cannot be evaluated', { rule: rule.id, index: i, problem });
      }
      unsubscribe = [
        ctx.bus.subscribe('llm.prompt_version_change', async (batch) => {
          for (const change of batch) await engine.promptVersion(change);
        }),
        ctx.bus.subscribe('channels.delivery', (batch) => { for (const d of batch) if (!d.event_id.includes(':digest:')) deliveries.labels(d.state).inc(); }),
      ];
      ctx.jobs.every('evaluate', intervalMs, async () => {
        const report = await engine.tick();
        if (report.on) {
          ticks.labels('ok').inc(report.evaluated - report.errors);
          if (report.errors) ticks.labels('error').inc(report.errors);
          if (llm) await catchUpVersions(ctx.store, llm, engine, Date.now());
          else await catchUpVersions(ctx.store, { promptVersions: async () => [] } as never, engine, Date.now());
          // Notices a process stored and died before handing over.
          for (const id of await engine.events.notHandedOver(Date.now() - 3_600_000, 100)) await notifier!.notify('firing', id);
        }
        await refreshGauge();
      });
      // Hourly: the digest of a week that ended goes out within the hour, once (its id is the project and the week).
      if (digests) ctx.jobs.every('weekly-digests', 3_600_000, async () => { await digests.queueWeekly(); }, { immediate: true });
      ctx.jobs.every('plugin-digests', 3_600_000, async () => { await pluginDigests.queueWeekly(); }, { immediate: true });
      ctx.jobs.every('history-retention', 3_600_000, async () => { await engine.events.deleteBefore(Date.now() - retentionMs); });
      gaugeTimer = setInterval(ctx.contain('refresh rule gauges', refreshGauge), intervalMs);
      gaugeTimer.unref();
    },
    async stop() {
      if (gaugeTimer) clearInterval(gaugeTimer);
      removeEvents?.();
      await Promise.all(unsubscribe.map((u) => u()));
      unsubscribe = [];
    },
  };
}
