import type { AlertEventSource } from './alerts.js';

/**
 * The LLM platform's seams for other plugins (evaluators, alerts, channels): what the `llm` plugin publishes on the bus
 * and the `llm` service it provides. The trace item's wire contract is in plugins/llm/README.md.
 */

/** A stored trace without its content: what the eval hooks get (they read the content when they run). */
export type PersistedTraceRef = Omit<PersistedTrace, 'trace'>;

/** A trace as the persist stage stored it (redacted), on `llm.trace.persisted`. */
export interface PersistedTrace {
  id: string;
  /** Epoch ms, assigned at ingest. With `id`, the stored row's key. */
  created_at: number;
  project_id: string;
  model: string;
  status: 'ok' | 'error';
  latency_ms: number | null;
  cost_usd: number | null;
  /** The prompt template's name and version number, when the item carried one. */
  template: string | null;
  version: number | null;
  /** The stored trace as `GET /api/v1/traces/:id` answers it: redacted, never the raw item. */
  trace: Record<string, unknown>;
  /**
   * Set when the trace was published before and has changed since: its messages came on OTLP logs after its span
   * was stored (plugins/llm/README.md, "OTLP logs"), or a Langfuse update (an end, output, usage, cost, level) came
   * after its generation was stored ("Langfuse upserts"). Subscribers that count traces skip it; ones that keep
   * content (an index, an eval result) replace theirs.
   */
  update?: true;
  /**
   * Set on the first publication of a trace stored from an OTLP span without its input or output: its messages may
   * still come on OTLP logs, and if they do the trace is published again with `update`. The evaluators wait a grace
   * for them before evaluating.
   */
  awaiting_messages?: true;
}

/** On `llm.prompt_version_change`: a template's text hashed to a value not seen before, so it got the next number. */
export interface PromptVersionChange {
  project_id: string;
  project: string;
  template: string;
  version: number;
  /** The version before it, or null for a template's first version. */
  previous_version: number | null;
  /** Hex SHA-256 of the normalised template text. */
  hash: string;
  /** Epoch ms. */
  created_at: number;
}

/**
 * Called by the persist stage with the traces a batch stored (each once: a retried batch's rows that were already
 * stored are not passed again), to enqueue evaluation jobs; and again, with `update` set, with a stored trace whose
 * messages arrived later on OTLP logs (so an eval that already ran can be redone on the complete trace). A hook's
 * throw is logged and counted, and never fails or repeats the batch. Hooks get references, not content: a batch's
 * content stays in the worker thread that stored it, and an eval job reads its trace from the store when it runs.
 */
export type EvalEnqueueHook = (traces: readonly PersistedTraceRef[]) => Promise<void> | void;

/**
 * The auth scheme the `llm` plugin registers for its public API: the project key in `X-Service-Project-Key`. Other
 * plugins' routes may name it (`auth: LLM_PROJECT_KEY_AUTH`); the principal's `subject` is the key's project id, so
 * such a route reads and writes that project's data only.
 */
export const LLM_PROJECT_KEY_AUTH = 'llm-project-key';

/**
 * Called by the `llm` plugin's retention job (every `llm.retention_interval`, in one process at a time) after it
 * deleted expired traces: every project that exists, with the cutoff of its retention (epoch ms; traces created before
 * it are gone). `at` is when the list was read. Plugins that keep data about traces delete theirs past each cutoff,
 * and that of projects not listed (deleted, also by `vigil project delete` in another process) from before `at`.
 * A hook's throw is logged and never stops the traces' retention.
 */
export type RetentionHook = (sweep: { at: number; projects: readonly { id: string; before: number }[] }) => Promise<void> | void;

/** A project as other plugins see it. */
export interface LlmProjectRef {
  id: string;
  name: string;
}

/** Which stored traces `recentTraces` returns, newest first. */
export interface RecentTracesQuery {
  template?: string;
  version?: number;
  /** At most 10,000. */
  limit: number;
  /**
   * The traces' columns only, each with `trace: {}`: for a caller that needs ids, templates and versions, so that
   * 10,000 traces cost no reading or parsing of their content.
   */
  withoutContent?: boolean;
}

/** How an eval ended: scored, failed (the reason says why), or skipped (a trace without output). */
export type EvalStatus = 'ok' | 'failed' | 'skipped';

/** One eval result, as `GET /api/v1/eval-results` answers it (times there are ISO 8601). */
export interface EvalResult {
  id: string;
  eval_definition_id: string;
  trace_id: string;
  /** 0..1; null when the eval failed or was skipped. */
  score: number | null;
  /**
   * `skipped`: the trace had no output and the definition's `on_missing_output` is `skip` (the default), so nothing
   * was scored; averages leave it out, as they leave out failures.
   */
  status: EvalStatus;
  /** The judge's reasoning, the function's reason, or why the eval failed. */
  reason: string | null;
  /** What produced the score: `llm_judge`, `custom_function`, or the embedder (`openai`, `glove-sif`, `lexical`). */
  method: string;
  /** The eval's own cost (judge or embedding tokens), never part of the application's cost. */
  cost: { tokens_in: number; tokens_out: number; usd: number | null };
  latency_ms: number;
  created_at: string;
}

/** On `llm.eval.result`: a result as stored, with what alert rules group by. Times are epoch ms. */
export interface EvalResultEvent extends Omit<EvalResult, 'created_at'> {
  created_at: number;
  project_id: string;
  eval_definition_name: string;
  eval_type: string;
  template: string | null;
  version: number | null;
  trace_created_at: number;
}

/**
 * On `llm.score.received`: a score an application sent with its traces (Langfuse `score-create`, from the legacy
 * ingestion), which the evaluators plugin keeps apart from eval results (`GET /api/v1/scores`). Published once per score in each batch that
 * carries it: a batch the SDK retries publishes it again with the same `id`, so keep it idempotently. `comment` and
 * `metadata` have been through the project's detectors (and its JSON paths, written over `$.metadata`).
 */
export interface ReceivedScore {
  /** A UUID, the same for every retry of the score; unique within `project_id` only (another project may send the same). */
  id: string;
  project_id: string;
  /** Where it came from: `langfuse` (the only source today). */
  source: 'langfuse';
  name: string;
  /** As sent: a number for NUMERIC (BOOLEAN as 0/1, or a boolean), a string for CATEGORICAL. */
  value: number | string | boolean;
  data_type: 'NUMERIC' | 'CATEGORICAL' | 'BOOLEAN';
  /** The stored trace it scores, when it names an observation: the id the trace item got (it may be stored later). */
  item_id?: string;
  /** The sender's own trace, observation and session ids, as sent (Langfuse trace ids are in `metadata.langfuse.trace_id` of its items). */
  trace_id?: string;
  observation_id?: string;
  session_id?: string;
  comment?: string;
  config_id?: string;
  /** ISO 8601: when the sender made the score. */
  timestamp: string;
  metadata?: unknown;
}

/** Traces an eval-score question covers: a project's, by template and version, and created in [from, to). */
export interface EvalScoreScope {
  project_id: string;
  template?: string;
  version?: number;
  /** Epoch ms, the traces' created_at. */
  from?: number;
  to?: number;
  /** Only this definition's results. */
  eval_definition_id?: string;
}

/** Averages of ok results. Scores of different methods are never averaged together (see plugins/evaluators). */
export interface EvalScoreSummary {
  /** The mean over every definition in scope, each counted under its one method; null without ok results. */
  avg_score: number | null;
  /** Ok results averaged into `avg_score`. */
  samples: number;
  failed: number;
  /** Results skipped for a trace without output: neither scores nor failures. */
  skipped: number;
  /** The evals' own cost in scope (judge and embedding tokens), apart from the application's. */
  cost: { tokens_in: number; tokens_out: number; usd: number };
  by_definition: {
    eval_definition_id: string;
    name: string;
    type: string;
    method: string;
    avg_score: number | null;
    samples: number;
    failed: number;
    skipped: number;
    /** Ok results of other methods, not averaged with these. */
    other_methods: { method: string; avg_score: number; samples: number }[];
  }[];
}

export interface EvalResultsQuery {
  eval_definition_id?: string;
  trace_id?: string;
  status?: EvalStatus;
  /** Epoch ms: results made at or after it. */
  since?: number;
  limit: number;
  offset: number;
}

/** What the evaluators plugin hands the `llm` plugin, so the public API shows eval results and scores. */
export interface EvalScoreSource {
  /** Results of a project, newest first. */
  results(projectId: string, query: EvalResultsQuery): Promise<EvalResult[]>;
  summary(scope: EvalScoreScope): Promise<EvalScoreSummary>;
  /**
   * `summary` of each version of one template, in one read: what a list of versions shows without a query per
   * version. Optional: without it, the `llm` plugin asks `summary` once per version.
   */
  summaryByVersion?(scope: EvalScoreScope & { template: string; versions: readonly number[] }): Promise<Map<number, EvalScoreSummary>>;
  /** Average score per slot of `stepMs` from `scope.from` (slot = floor((created_at - from) / stepMs)), as `avg_score` counts it. */
  series(scope: EvalScoreScope & { from: number; to: number }, stepMs: number): Promise<Map<number, number>>;
  /**
   * Optional: the evals' own cost (USD) of each project's traces made in [from, to), in one grouped read (billing).
   * Without it, the `llm` plugin asks `summary` once per project.
   */
  costByProject?(projectIds: readonly string[], from: number, to: number): Promise<Map<string, number>>;
  /**
   * `summary` over each group of a project's traces named by id (a page of users, each with their latest traces), in
   * one read. Optional: without it, groups have no scores. The caller bounds the ids (at most 5,000 in all).
   */
  summaryByTraces?(projectId: string, groups: ReadonlyMap<string, readonly string[]>): Promise<Map<string, EvalScoreSummary>>;
}

/** Consecutive windows over a project's traces, narrowed by template, version and model (alert rules, digests). */
export interface TraceWindowsQuery {
  project_id: string;
  template?: string;
  version?: number;
  model?: string;
  /** The last window ends here (epoch ms, exclusive); each is `stepMs` long; at most 1,500 windows. */
  to: number;
  stepMs: number;
  count: number;
  /** Also the exact P95 latency of each window (one more indexed query per window with calls). Default false. */
  p95?: boolean;
}

/** One window's traces. */
export interface TraceWindow {
  requests: number;
  errors: number;
  /** USD of the calls with a known cost. */
  cost_usd: number;
  /** Nearest-rank P95 of the calls that reported a latency; null without any, or when not asked for. */
  p95_latency_ms: number | null;
}

/** A project's month so far (UTC calendar month), and its cap (`budget.monthly_usd`). */
export interface MonthSpend {
  /** USD of every accepted item this month: what the budget caps. */
  cost_usd: number;
  items: number;
  sampled_out: number;
  /** Null when the project has no cap. */
  cap_usd: number | null;
}

/** What the `llm` plugin offers other plugins. */
export interface LlmService {
  /** Adds a hook called after each persisted batch; returns its removal. */
  onPersisted(hook: EvalEnqueueHook): () => void;
  /** A project by name, or undefined. */
  project(name: string): Promise<LlmProjectRef | undefined>;
  /** A stored trace of the project, or undefined (never sent, not persisted yet, past retention). */
  trace(projectId: string, traceId: string): Promise<PersistedTrace | undefined>;
  /** Stored traces of the project, newest first. */
  recentTraces(projectId: string, query: RecentTracesQuery): Promise<PersistedTrace[]>;
  /** USD for tokens of `model` by the llm plugin's price table (`llm.prices` over the shipped one); null when unpriced. */
  price(model: string, tokens: { input: number; output: number }): number | null;
  /** Adds a hook called by each retention run; returns its removal. */
  onRetention(hook: RetentionHook): () => void;
  /** Registers the source of eval results and scores for the public API (one at a time); returns its removal. */
  provideEvalScores(source: EvalScoreSource): () => void;
  /** Every project. */
  projects(): Promise<LlmProjectRef[]>;
  /** Aggregates of consecutive windows of a project's traces, oldest first: one grouped query (plus P95s when asked). */
  traceWindows(query: TraceWindowsQuery): Promise<TraceWindow[]>;
  /** The eval score summary of traces in scope, from the evaluators' source (null scores when it is off). */
  evalScores(scope: EvalScoreScope): Promise<EvalScoreSummary>;
  /** The project's spend this month with its cap. */
  monthSpend(projectId: string, at?: number): Promise<MonthSpend>;
  /** Prompt versions made at or after `since` (epoch ms) in every project, oldest first, at most `limit` (≤ 1,000). */
  promptVersions(since: number, limit: number): Promise<PromptVersionChange[]>;
  /** The templates a project has versions of, by name. */
  templates(projectId: string): Promise<string[]>;
  /** Registers where `GET /api/v1/alert-events` reads events (the alerts plugin; one at a time); returns its removal. */
  provideAlertEvents(source: AlertEventSource): () => void;
}
