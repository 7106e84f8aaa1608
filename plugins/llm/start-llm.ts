import { parseByteSize, parseDuration, type PluginContext } from '@vigil/plugin-sdk';
import { AlertEvents } from './alert-events.js';
import { AlertReads } from './alert-reads.js';
import { registerDashboardApi } from './api/dashboard-routes.js';
import { registerPublicApi } from './api/register.js';
import { registerBillingRoutes } from './billing/billing-routes.js';
import { planUsageSource } from './billing/plan-usage-source.js';
import { EvalHooks } from './eval-hooks.js';
import { EvalScores } from './eval-scores.js';
import { drainLegacyQueue } from './lane/legacy-queue.js';
import { startLane } from './lane/start-lane.js';
import { registerIngestRoute } from './ingest-route.js';
import { registerLangfuseAuth } from './langfuse-auth.js';
import { registerLangfuseRoutes } from './langfuse-routes.js';
import { deleteStaleLangfuseState } from './langfuse-state.js';
import { scheduleUnendedSweep, sweepIntervalMs } from './langfuse-upserts.js';
import { announcePersisted } from './live-events.js';
import { llmMigrations } from './migrations.js';
import { registerOtlpLogsRoutes } from './otlp-logs-route.js';
import { registerOtlpRoutes } from './otlp-routes.js';
import { PendingMessages } from './pending-messages.js';
import { PriceTable } from './price-table.js';
import { registerLangfusePromptRoutes } from './prompts/langfuse-prompt-routes.js';
import { PromptRegistry } from './prompts/prompt-registry.js';
import { registerPromptRoutes } from './prompts/prompt-routes.js';
import { registerProjectKeyAuth } from './project-auth.js';
import { ProjectDirectory } from './project-directory.js';
import { ProjectStore } from './project-store.js';
import { registerProjectRoutes } from './projects-routes.js';
import { deleteExpired } from './retention.js';
import { RetentionHooks } from './retention-hooks.js';
import { registerTraceTrees } from './spans/start-trees.js';
import { TraceReader } from './trace-reader.js';
import type { LlmConfig } from './types.js';

export interface RunningLlm {
  start(): void;
  stop(): Promise<void>;
  reload(next: LlmConfig): Promise<void>;
}

/** The keys a reload cannot apply: the lane's threads and the ingest routes are built with them. */
const RESTART_KEYS = ['persist', 'max_body_bytes', 'retention_interval', 'langfuse', 'spans'] as const;

/**
 * Builds the plugin: tables, projects from the config (the file wins), the LLM lane (worker threads that decode,
 * check, redact and store every ingest request) and its routes, the public API, the dashboard's project routes, and
 * the `llm` service.
 */
export async function startLlm(ctx: PluginContext, config: LlmConfig): Promise<RunningLlm> {
  await ctx.store.migrate(llmMigrations);
  let current = config;
  const maxBodyBytes = parseByteSize(config.max_body_bytes);
  const projectStore = new ProjectStore(ctx.store);
  const projects = new ProjectDirectory(projectStore, { settings: config.defaults, maxBodyBytes, plans: config.plans });
  const synced = await projectStore.syncConfig(config.projects);
  if (synced.demoted.length) ctx.log.warn('projects no longer in llm.projects keep their data but lost their config key', { projects: synced.demoted });
  let prices = new PriceTable(config.prices);

  const items = ctx.metrics.counter('items_total', {
    help: 'LLM trace items through ingest, by project and outcome: accepted, rejected (invalid), sampled_out (accepted, dropped by budget sampling).',
    labelNames: ['project', 'outcome'],
  });
  const persisted = ctx.metrics.counter('persisted_total', {
    help: 'Items through the persist stage, by outcome: stored, duplicate (stored before: a retried job or batch), dead (refused for good), project_gone.',
    labelNames: ['outcome'],
  });
  const unpriced = ctx.metrics.counter('unpriced_items_total', { help: 'Items without cost_usd whose model has no price (llm.prices) or that carry no tokens.' });
  const versionsMade = ctx.metrics.counter('prompt_versions_total', { help: 'Prompt versions made (a template text hashed to a value not seen before).' });
  const hookFailures = ctx.metrics.counter('eval_hook_failures_total', { help: 'Eval enqueue hooks that threw after a persisted batch.' });
  const langfuseScores = ctx.metrics.counter('langfuse_scores_total', { help: 'Scores received through the Langfuse-compatible ingestion (published on llm.score.received, kept by the evaluators plugin).' });

  const logMessages = ctx.metrics.counter('otlp_log_messages_total', {
    help: 'Span items whose messages came on OTLP logs, by outcome: applied (their trace was stored), waiting (kept for their span), dead (redaction failed: dropped).',
    labelNames: ['outcome'],
  });
  const unended = ctx.metrics.counter('langfuse_unended_total', {
    help: 'Langfuse generations stored by the idle sweep (llm.langfuse.unended_after), by outcome: stored (all of them), incomplete (those never ended).',
    labelNames: ['outcome'],
  });
  const updates = ctx.metrics.counter('langfuse_updates_total', {
    help: 'Langfuse updates of stored traces, by outcome: applied (the trace replaced and published again), unchanged (a repeat), stale (a newer one was stored), unstored (the trace never was), invalid (the updated item fails its checks).',
    labelNames: ['outcome'],
  });
  let unendedWaiting = 0;
  ctx.metrics.gauge('langfuse_unended_waiting', {
    help: 'Langfuse generations created and not stored yet (waiting for their end or for the idle sweep), at the last sweep; counted up to 100,000.',
    collect: (g) => g.set(unendedWaiting),
  });
  const trees = registerTraceTrees(ctx, config, projectStore);
  const hooks = new EvalHooks(ctx.log, () => hookFailures.inc());
  const retentionHooks = new RetentionHooks(ctx.log);
  const pending = new PendingMessages(ctx.store);
  const lane = startLane(ctx, config, {
    prices: () => current.prices,
    hooks,
    outlets: {
      counts(project, c) {
        if (c.accepted) items.labels(project.name, 'accepted').inc(c.accepted);
        if (c.rejected) items.labels(project.name, 'rejected').inc(c.rejected);
        if (c.sampledOut) items.labels(project.name, 'sampled_out').inc(c.sampledOut);
        if (c.unpriced) unpriced.inc(c.unpriced);
        if (c.stored) persisted.labels('stored').inc(c.stored);
        if (c.duplicate) persisted.labels('duplicate').inc(c.duplicate);
        if (c.dead) persisted.labels('dead').inc(c.dead);
        if (c.messagesApplied) logMessages.labels('applied').inc(c.messagesApplied);
        if (c.messagesWaiting) logMessages.labels('waiting').inc(c.messagesWaiting);
        if (c.messagesDead) logMessages.labels('dead').inc(c.messagesDead);
        if (c.scores) langfuseScores.inc(c.scores);
        if (c.unendedStored) unended.labels('stored').inc(c.unendedStored);
        if (c.unendedIncomplete) unended.labels('incomplete').inc(c.unendedIncomplete);
        if (c.updatesApplied) updates.labels('applied').inc(c.updatesApplied);
        if (c.updatesUnchanged) updates.labels('unchanged').inc(c.updatesUnchanged);
        if (c.updatesStale) updates.labels('stale').inc(c.updatesStale);
        if (c.updatesUnstored) updates.labels('unstored').inc(c.updatesUnstored);
        if (c.updatesInvalid) updates.labels('invalid').inc(c.updatesInvalid);
        if (c.spans) trees.count(c.spans);
      },
      versions(changes) {
        versionsMade.inc(changes.length);
        for (const change of changes) ctx.bus.publish('llm.prompt_version_change', change);
      },
      scores(scores) { for (const score of scores) ctx.bus.publish('llm.score.received', score); },
      wantsTraces: () => ctx.bus.hasSubscribers('llm.trace.persisted'),
      publish: (trace) => { ctx.bus.publish('llm.trace.persisted', trace); },
      announce: (project, stored) => announcePersisted(ctx.bus, project.name, stored),
    },
  });
  drainLegacyQueue(ctx, config, lane, (id) => projects.byId(id), () => persisted.labels('project_gone'));

  registerProjectKeyAuth(ctx.http, (key) => projects.byKey(key));
  registerIngestRoute(ctx.http, lane, maxBodyBytes);
  registerProjectRoutes(ctx.http, ctx.store, projects, () => maxBodyBytes);
  const scores = new EvalScores();
  const alertEvents = new AlertEvents();
  registerPublicApi(ctx.http, ctx.store, scores, alertEvents);
  registerDashboardApi(ctx.http, ctx.store, projectStore, scores);
  registerBillingRoutes(ctx.http, { store: ctx.store, projects, scores });
  // The OTLP and Langfuse-compatible routes hand their requests to the same lane.
  registerLangfuseAuth(ctx.http, (key) => projects.byKey(key));
  registerOtlpRoutes(ctx.http, lane, maxBodyBytes);
  registerOtlpLogsRoutes(ctx.http, lane, maxBodyBytes);
  registerLangfuseRoutes(ctx.http, lane, { maxBodyBytes, version: ctx.runtime.version });
  // Versions teams create are announced as detected ones are.
  const registry = new PromptRegistry(ctx.store, (change) => { versionsMade.inc(); ctx.bus.publish('llm.prompt_version_change', change); });
  registerPromptRoutes(ctx.http, registry, projects);
  registerLangfusePromptRoutes(ctx.http, registry);
  const reader = new TraceReader(ctx.store);
  const alertReads = new AlertReads(ctx.store);
  ctx.services.provide('llm', {
    onPersisted: (hook) => hooks.add(hook),
    onRetention: (hook) => retentionHooks.add(hook),
    project: async (name) => {
      const row = await projectStore.get(name);
      return row ? { id: row.id, name: row.name } : undefined;
    },
    trace: (projectId, traceId) => reader.trace(projectId, traceId),
    recentTraces: (projectId, query) => reader.recent(projectId, query),
    price: (model, tokens) => prices.cost(model, tokens),
    provideEvalScores: (source) => scores.provide(source),
    projects: async () => (await projectStore.list()).map((p) => ({ id: p.id, name: p.name })),
    traceWindows: (query) => alertReads.traceWindows(query),
    evalScores: (scope) => scores.summary(scope),
    monthSpend: async (projectId, at = Date.now()) => {
      const project = await projects.byId(projectId);
      return alertReads.monthSpend(projectId, project?.settings.monthlyBudgetUsd ?? null, at);
    },
    promptVersions: (since, limit) => alertReads.promptVersions(since, limit),
    templates: (projectId) => alertReads.templates(projectId),
    provideAlertEvents: (source) => alertEvents.provide(source),
  });

  let removePlanSource: (() => void) | undefined;
  return {
    start() {
      // The alerts plugin starts after this one (it needs the llm service), but every setup, where it provides its
      // service, runs before any start.
      removePlanSource ??= ctx.services.find('alerts')?.registerSource(planUsageSource(ctx.store, projects));
      ctx.jobs.every('retention', parseDuration(current.retention_interval), async () => {
        // Taken before the list: a project created after it is not deleted as gone by a hook (its data is newer).
        const at = Date.now();
        const rows = await projectStore.list();
        const kept = rows.map((r) => ({ id: r.id, retentionMs: projects.toProject(r).settings.retentionMs }));
        const deleted = await deleteExpired(ctx.store, kept, at);
        const stale = await deleteStaleLangfuseState(ctx.store);
        const orphans = await pending.deleteStale();
        if (deleted || stale || orphans) ctx.log.debug('retention deleted expired traces, stale Langfuse state and messages whose span never came', { traces: deleted, langfuse: stale, messages: orphans });
        await retentionHooks.run({ at, projects: kept.map((p) => ({ id: p.id, before: at - p.retentionMs })) });
        await trees.retention(kept, at);
      }, { immediate: true });
      const unendedAfter = parseDuration(current.langfuse.unended_after);
      scheduleUnendedSweep(ctx, {
        lane, projects, unendedAfterMs: () => unendedAfter, waiting: (n) => { unendedWaiting = n; }, log: ctx.log,
      }, sweepIntervalMs(unendedAfter));
      trees.start();
    },
    async stop() {
      // The queue's workers are stopped by the runtime; nothing else runs on its own.
      removePlanSource?.();
      removePlanSource = undefined;
    },
    async reload(next) {
      for (const key of RESTART_KEYS) {
        if (JSON.stringify(next[key]) !== JSON.stringify(current[key])) throw new Error(`llm.${key} changed: restart vigil to apply it`);
      }
      await projectStore.syncConfig(next.projects);
      prices = new PriceTable(next.prices);
      projects.setDefaults(next.defaults, maxBodyBytes, next.plans);
      current = next;
    },
  };
}
