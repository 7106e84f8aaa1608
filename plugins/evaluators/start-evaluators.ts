import { parseDuration, type LlmService, type PluginContext } from '@vigil/plugin-sdk';
import { registerDefinitionRoutes, type ProviderView } from './definitions-routes.js';
import { DefinitionStore } from './definitions.js';
import type { Embedder } from './embedder-contract.js';
import { loadEmbedderModule } from './embedder-module.js';
import { EmbedderReadiness } from './embedder-readiness.js';
import { EmbeddingCache } from './embedding-cache.js';
import { EvalEnqueuer } from './enqueue-hook.js';
import { EvalJobs, type EvalJobPayload } from './eval-job.js';
import { evaluate, type EvaluateDeps } from './evaluate.js';
import { GoldenSets } from './golden-sets.js';
import type { ResolvedProvider } from './judge-client.js';
import { evaluatorsMigrations } from './migrations.js';
import { RateLimiter } from './rate-limit.js';
import { ReceivedScores } from './received-scores.js';
import { deleteExpiredEvalData } from './retention.js';
import { registerResultRoutes } from './results-routes.js';
import { ResultStore } from './results-store.js';
import { registerScoreRoutes } from './scores-routes.js';
import type { EvalDefinition, EvaluatorsConfig } from './types.js';

export interface RunningEvaluators {
  start(): void;
  stop(): Promise<void>;
  reload(next: EvaluatorsConfig): Promise<void>;
}

/** The keys a reload cannot apply: the queue's workers are built with them. */
const RESTART_KEYS = ['concurrency', 'project_concurrency', 'max_attempts', 'backoff', 'timeout'] as const;

/** Keys come from the config (usually `${ENV}`) or the variable it names; they stay in this process. */
function resolveProviders(config: EvaluatorsConfig, env: NodeJS.ProcessEnv): Map<string, ResolvedProvider> {
  return new Map(Object.entries(config.providers).map(([name, p]) => {
    const apiKey = p.api_key ?? (p.api_key_env ? env[p.api_key_env] : undefined);
    const keyEnv = p.api_key === undefined && p.api_key_env ? p.api_key_env : undefined;
    return [name, { name, baseUrl: p.base_url, model: p.model, ...(apiKey ? { apiKey } : {}), ...(keyEnv ? { keyEnv } : {}), timeoutMs: parseDuration(p.timeout), ...(p.price ? { price: p.price } : {}) }];
  }));
}

/**
 * Builds the eval stage: tables, the definitions of the config file (the file wins), the durable eval queue and its
 * handler behind the per-project rate, the `llm` service's persisted-traces hook and score source, and the routes.
 */
export async function startEvaluators(ctx: PluginContext, config: EvaluatorsConfig): Promise<RunningEvaluators> {
  await ctx.store.migrate(evaluatorsMigrations);
  const llm: LlmService = ctx.services.get('llm');
  let current = config;
  let providers = resolveProviders(config, process.env);
  let projectRates = new Map<string, number>();

  const definitions = new DefinitionStore(ctx.store);
  const results = new ResultStore(ctx.store);
  const golden = new GoldenSets(ctx.store);
  const received = new ReceivedScores(ctx.store);
  const cache = new EmbeddingCache(ctx.store);
  const ratePerMinute = (projectId: string) => projectRates.get(projectId) ?? current.rate_per_minute;
  const rate = new RateLimiter(ctx.store, ratePerMinute);

  const resultsTotal = ctx.metrics.counter('results_total', { help: 'Eval results stored, by eval type and status (ok, failed).', labelNames: ['type', 'status'] });
  const enqueued = ctx.metrics.counter('jobs_enqueued_total', { help: 'Eval jobs put in the durable queue (sampled traces and re-runs).' });
  const sampledOut = ctx.metrics.counter('sampled_out_total', { help: '(definition, trace) pairs in scope that sampling left out.' });
  const scoresKept = ctx.metrics.counter('scores_kept_total', { help: 'Scores sent with traces (llm.score.received) kept; a resent one is not counted again.' });
  const deferred = ctx.metrics.counter('jobs_deferred_total', { help: 'Eval jobs put back in the queue to wait for their project\'s rate slot.' });

  let embedder: Promise<Embedder> | undefined;
  let cosine: ((a: Float32Array, b: Float32Array) => number) | undefined;
  const readiness = new EmbedderReadiness();
  const makeEmbedder = async (): Promise<Embedder> => {
    readiness.begin();
    try {
      const module = await loadEmbedderModule();
      cosine = module.cosine;
      const e = current.embeddings;
      const apiKey = e?.api_key ?? (e?.api_key_env ? process.env[e.api_key_env] : undefined);
      const made = await module.createEmbedder({
        ...(e ? { provider: { base_url: e.base_url, model: e.model, ...(apiKey ? { api_key: apiKey } : {}) } } : {}),
        dataDir: ctx.dataDir,
        log: (msg) => ctx.log.info(msg),
        progress: (step, fraction) => readiness.step(step, fraction),
      });
      readiness.ready(made.method, made.reason);
      return made;
    } catch (err) {
      readiness.failed((err as Error).message);
      throw err;
    }
  };

  const deps: EvaluateDeps = {
    sandboxes: ctx.sandboxes,
    golden,
    judge: { provider: (name) => providers.get(name), price: (model, tokens) => llm.price(model, tokens) },
    similarity: {
      embedder: () => {
        embedder ??= makeEmbedder();
        // A failure is not kept: the next eval tries again (the provider may be back, the vectors converted).
        embedder.catch(() => { embedder = undefined; });
        return embedder;
      },
      cosine: (a, b) => cosine!(a, b),
      cache,
      price: (model, tokens) => (current.embeddings?.price ? Math.round(tokens * current.embeddings.price.input * 1e6) / 1e12 : llm.price(model, { input: tokens, output: 0 })),
    },
  };
  const run = (def: EvalDefinition, trace: Parameters<typeof evaluate>[2]) => evaluate(deps, def, trace);
  /**
   * What an eval needs ready before its own time is measured: the embedder, for a similarity eval (its first
   * preparation takes seconds once, and is not that eval's latency). A failure is the eval's to report.
   */
  const prepare = async (def: EvalDefinition): Promise<void> => {
    if (def.type === 'semantic_similarity') await deps.similarity.embedder().catch(() => undefined);
  };

  const jobs = new EvalJobs({
    llm, definitions, results, rate, evaluate: run, prepare, maxAttempts: config.max_attempts, log: ctx.log,
    publish: (event) => { ctx.bus.publish('llm.eval.result', event); },
    counters: { result: (type, status) => resultsTotal.labels(type, status).inc(), deferred: () => deferred.inc() },
  });
  // Jobs are grouped by project (enqueue-hook.ts): claims take projects in turn, and one project's slow judge holds
  // at most its share of the slots, by default all but one.
  const queue = ctx.jobs.queue<EvalJobPayload>('eval', (job) => jobs.run(job), {
    concurrency: config.concurrency,
    groupConcurrency: Math.min(config.concurrency, config.project_concurrency ?? Math.max(1, config.concurrency - 1)),
    maxAttempts: config.max_attempts,
    backoffMs: parseDuration(config.backoff),
    timeoutMs: parseDuration(config.timeout),
    pollMs: 200,
  });
  const enqueuer = new EvalEnqueuer(definitions, queue, { enqueued: (n) => enqueued.inc(n), sampledOut: (n) => sampledOut.inc(n) },
    () => parseDuration(current.messages_grace));

  /** The config file's definitions and project rates, by project id; unknown projects are logged, not fatal. */
  const applyConfig = async (next: EvaluatorsConfig) => {
    const ids = new Map<string, string>();
    const idOf = async (name: string) => {
      if (!ids.has(name)) {
        const p = await llm.project(name);
        if (p) ids.set(name, p.id);
      }
      return ids.get(name);
    };
    const declared = [];
    for (const d of next.definitions) {
      const projectId = await idOf(d.project);
      if (!projectId) {
        ctx.log.warn('evaluators.definitions names a project that does not exist; the definition waits for it (create the project, then reload)', { project: d.project, definition: d.id });
        continue;
      }
      const { project: _project, ...input } = d;
      declared.push({ ...input, projectId });
    }
    await definitions.syncConfig(declared);
    const rates = new Map<string, number>();
    for (const [name, perMinute] of Object.entries(next.project_rates)) {
      const id = await idOf(name);
      if (id) rates.set(id, perMinute); else ctx.log.warn('evaluators.project_rates names a project that does not exist', { project: name });
    }
    projectRates = rates;
  };
  await applyConfig(config);

  const offHook = llm.onPersisted((traces) => enqueuer.onPersisted(traces));
  const offRetention = llm.onRetention(async (sweep) => {
    const deleted = await deleteExpiredEvalData(ctx.store, sweep);
    if (deleted.results || deleted.scores) ctx.log.debug('retention deleted eval results and sent scores of expired traces and deleted projects', deleted);
  });
  const offScores = llm.provideEvalScores({
    results: (projectId, q) => results.list(projectId, q),
    summary: (scope) => results.summary(scope),
    summaryByVersion: (scope) => results.summaryByVersion(scope),
    summaryByTraces: (projectId, groups) => results.summaryByTraces(projectId, groups),
    series: (scope, step) => results.series(scope, step),
    costByProject: (ids, from, to) => results.costByProject(ids, from, to),
  });

  const providerViews = (): ProviderView[] => [...providers.values()].map((p) => ({ name: p.name, base_url: p.baseUrl, model: p.model, has_key: p.apiKey !== undefined, key_env: p.keyEnv ?? null }));
  registerDefinitionRoutes(ctx.http, {
    llm, definitions, results, enqueuer, providers: providerViews, ratePerMinute, evaluate: run, prepare, embedderStatus: () => readiness.status(),
  });
  registerResultRoutes(ctx.http, llm, results, golden);
  registerScoreRoutes(ctx.http, llm, received);

  let stopped = false;
  let offReceived: (() => Promise<void>) | undefined;
  return {
    start() {
      // The ingestion answered before this runs, so the sender will not resend a batch that fails here: it is logged
      // (and lost) rather than retried in memory, which a store that is down would only fill.
      offReceived = ctx.bus.subscribe('llm.score.received', async (batch) => {
        try {
          scoresKept.inc(await received.keep(batch));
        } catch (err) {
          ctx.log.warn('scores sent with traces could not be kept', { scores: batch.length, error: (err as Error).message });
        }
      });
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      offHook();
      offRetention();
      offScores();
      await offReceived?.();
    },
    async reload(next) {
      for (const key of RESTART_KEYS) {
        if (JSON.stringify(next[key]) !== JSON.stringify(current[key])) throw new Error(`evaluators.${key} changed: restart vigil to apply it`);
      }
      await applyConfig(next);
      if (JSON.stringify(next.embeddings) !== JSON.stringify(current.embeddings)) embedder = undefined;
      providers = resolveProviders(next, process.env);
      current = next;
    },
  };
}
