/**
 * The LLM platform's seams for other plugins (evaluators, alerts, channels): what the `llm` plugin publishes on the bus
 * and the `llm` service it provides. The trace item's wire contract is in plugins/llm/README.md.
 */

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
 * stored are not passed again), to enqueue evaluation jobs. A hook's throw is logged and counted, and never fails or
 * repeats the batch.
 */
export type EvalEnqueueHook = (traces: readonly PersistedTrace[]) => Promise<void> | void;

/** What the `llm` plugin offers other plugins. */
export interface LlmService {
  /** Adds a hook called after each persisted batch; returns its removal. */
  onPersisted(hook: EvalEnqueueHook): () => void;
}
