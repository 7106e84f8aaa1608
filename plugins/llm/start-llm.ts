import { parseByteSize, parseDuration, type JobQueue, type PersistedTrace, type PluginContext, type QueuedJob } from '@vigil/plugin-sdk';
import type { PolicyService } from '../../policies/policy-service.js';
import { registerDashboardApi } from './api/dashboard-routes.js';
import { registerPublicApi } from './api/register.js';
import { EvalHooks } from './eval-hooks.js';
import { EvalScores } from './eval-scores.js';
import { GroupCommit, MAX_ITEMS_PER_JOB } from './group-commit.js';
import { createIngestPipeline, type PersistPayload } from './ingest-pipeline.js';
import { registerIngestRoute } from './ingest-route.js';
import { registerLangfuseAuth } from './langfuse-auth.js';
import { registerLangfuseRoutes } from './langfuse-routes.js';
import { deleteStaleLangfuseState } from './langfuse-state.js';
import { announcePersisted } from './live-events.js';
import { publishUpdates } from './late-messages.js';
import { llmMigrations } from './migrations.js';
import { registerOtlpLogsRoutes } from './otlp-logs-route.js';
import { registerOtlpRoutes } from './otlp-routes.js';
import { PendingMessages } from './pending-messages.js';
import { isMessagesPayload, MessagesStage, type MessagesPayload } from './persist-messages.js';
import { PersistStage } from './persist-stage.js';
import { PriceTable } from './price-table.js';
import { registerProjectKeyAuth } from './project-auth.js';
import { ProjectDirectory } from './project-directory.js';
import { ProjectStore } from './project-store.js';
import { registerProjectRoutes } from './projects-routes.js';
import { PromptVersions } from './prompt-versions.js';
import { receivedScores } from './received-scores.js';
import { deleteExpired } from './retention.js';
import { RetentionHooks } from './retention-hooks.js';
import { TraceReader } from './trace-reader.js';
import type { LlmConfig } from './types.js';
import { UsageBook } from './usage-book.js';

export interface RunningLlm {
  start(): void;
  stop(): Promise<void>;
  reload(next: LlmConfig): Promise<void>;
}

/** The keys a reload cannot apply: the queue's workers and the ingest route are built with them. */
const RESTART_KEYS = ['persist', 'max_body_bytes', 'retention_interval'] as const;

/**
 * Builds the plugin: tables, projects from the config (the file wins), the persist queue and its worker, the ingest
 * pipeline and its routes, the public API, the dashboard's project routes, and the `llm` service.
 */
export async function startLlm(ctx: PluginContext, config: LlmConfig, policy: PolicyService): Promise<RunningLlm> {
  await ctx.store.migrate(llmMigrations);
  let current = config;
  const maxBodyBytes = parseByteSize(config.max_body_bytes);
  const projectStore = new ProjectStore(ctx.store);
  const projects = new ProjectDirectory(projectStore, { settings: config.defaults, maxBodyBytes });
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

  const versions = new PromptVersions(ctx.store, (change) => {
    versionsMade.inc();
    ctx.bus.publish('llm.prompt_version_change', change);
  });
  const logMessages = ctx.metrics.counter('otlp_log_messages_total', {
    help: 'Span items whose messages came on OTLP logs, by outcome: applied (their trace was stored), waiting (kept for their span), dead (redaction failed: dropped).',
    labelNames: ['outcome'],
  });
  const hooks = new EvalHooks(ctx.log, () => hookFailures.inc());
  const retentionHooks = new RetentionHooks(ctx.log);
  const pending = new PendingMessages(ctx.store);
  const publish = (trace: PersistedTrace) => { ctx.bus.publish('llm.trace.persisted', trace); };
  const messagesStage = new MessagesStage({
    log: ctx.log,
    project: (id) => projects.byId(id),
    governJson: (value, rules) => policy.governJson(value, rules),
    pending,
    updated: (traces) => publishUpdates(traces, publish, hooks),
    counters: {
      applied: (n) => logMessages.labels('applied').inc(n),
      waiting: (n) => logMessages.labels('waiting').inc(n),
      dead: (n) => logMessages.labels('dead').inc(n),
    },
  });
  const stage = new PersistStage({
    store: ctx.store,
    log: ctx.log,
    project: (id) => projects.byId(id),
    versions,
    governJson: (value, rules) => policy.governJson(value, rules),
    hooks,
    pending,
    publish,
    announce: (project, stored) => announcePersisted(ctx.bus, project.name, stored),
    counters: {
      stored: (n) => persisted.labels('stored').inc(n),
      duplicate: (n) => persisted.labels('duplicate').inc(n),
      dead: (n) => persisted.labels('dead').inc(n),
      projectGone: (n) => persisted.labels('project_gone').inc(n),
    },
  });
  // One durable queue for both kinds of persist work: trace items, and messages from OTLP logs.
  const queue = ctx.jobs.queue<PersistPayload | MessagesPayload>('persist', (job) => (isMessagesPayload(job.payload)
    ? messagesStage.run(job as QueuedJob<MessagesPayload>)
    : stage.run(job as QueuedJob<PersistPayload>)), {
    concurrency: config.persist.concurrency,
    maxAttempts: config.persist.max_attempts,
    backoffMs: parseDuration(config.persist.backoff),
    timeoutMs: parseDuration(config.persist.timeout),
    pollMs: 100,
    // Queued items are not redacted yet: their copy in the queue goes once they are stored.
    dropPayloadWhenDone: true,
    // Every item in it was answered 202: a stop finishes them, so that none waits on disk unredacted until a restart.
    drainOnStop: true,
  });
  const usage = new UsageBook(ctx.store);
  const pipeline = createIngestPipeline({
    prices: () => prices,
    usage,
    commit: new GroupCommit(queue as JobQueue<PersistPayload>, usage),
    projectForKey: (key) => projects.byKey(key),
    counters: {
      accepted: (p) => items.labels(p, 'accepted'),
      rejected: (p) => items.labels(p, 'rejected'),
      sampledOut: (p) => items.labels(p, 'sampled_out'),
      unpriced,
    },
  });

  registerProjectKeyAuth(ctx.http, (key) => projects.byKey(key));
  registerIngestRoute(ctx.http, pipeline, maxBodyBytes);
  registerProjectRoutes(ctx.http, ctx.store, projects, () => maxBodyBytes);
  const scores = new EvalScores();
  registerPublicApi(ctx.http, ctx.store, scores);
  registerDashboardApi(ctx.http, ctx.store, projectStore, scores);
  // The OTLP and Langfuse-compatible routes hand their mapped items to the same pipeline.
  registerLangfuseAuth(ctx.http, (key) => projects.byKey(key));
  registerOtlpRoutes(ctx.http, pipeline, maxBodyBytes);
  registerOtlpLogsRoutes(ctx.http, async (project, spans) => {
    // Log records are not items: they never count toward the month. A month used up refuses them (429) all the same,
    // as it refuses their spans: messages kept for spans that cannot be stored would only wait to be deleted.
    await pipeline.admit(project);
    const jobs = [];
    for (let i = 0; i < spans.length; i += MAX_ITEMS_PER_JOB) jobs.push({ payload: { kind: 'messages' as const, project: project.id, spans: spans.slice(i, i + MAX_ITEMS_PER_JOB) } });
    await queue.enqueueMany(jobs);
  }, maxBodyBytes);
  registerLangfuseRoutes(ctx.http, ctx.store, pipeline, {
    maxBodyBytes, version: ctx.runtime.version, scores: langfuseScores,
    publishScores: (project, scores) => {
      for (const score of receivedScores(project, scores, (value, rules) => policy.governJson(value, rules))) ctx.bus.publish('llm.score.received', score);
    },
  });
  const reader = new TraceReader(ctx.store);
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
  });

  return {
    start() {
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
      }, { immediate: true });
    },
    async stop() { /* the queue's workers are stopped by the runtime; nothing else runs on its own */ },
    async reload(next) {
      for (const key of RESTART_KEYS) {
        if (JSON.stringify(next[key]) !== JSON.stringify(current[key])) throw new Error(`llm.${key} changed: restart vigil to apply it`);
      }
      await projectStore.syncConfig(next.projects);
      prices = new PriceTable(next.prices);
      projects.setDefaults(next.defaults, maxBodyBytes);
      current = next;
    },
  };
}
