/**
 * The native trace item: what `POST /v1/traces` accepts, one element of `{ "traces": [ … ] }`, and what every other
 * ingest path (OTLP, the Langfuse-compatible routes) turns its input into before the common ingest pipeline
 * (validation, sampling, cost, the persist queue). The wire contract is documented in plugins/llm/README.md; clients
 * in other languages are written from it.
 */
export interface TraceTokens {
  input?: number;
  output?: number;
  /** Input tokens served from the provider's prompt cache (priced at the cached rate). */
  cache_read?: number;
  total?: number;
}

export interface PromptTemplateRef {
  name: string;
  /** The template text before variables were filled in; normalised and hashed by the persist stage. */
  raw: string;
  variables?: Record<string, unknown>;
}

export interface TraceItem {
  /** The LLM's model name, as the provider reports it (`gpt-4o-mini-2024-07-18`). Required. */
  model: string;
  /** A client UUID: when given, a retried batch never stores the item twice. Assigned by the server otherwise. */
  id?: string;
  name?: string;
  /** The provider's name when known (`openai`, `anthropic`); filled by the OTLP and Langfuse mappings. */
  provider?: string;
  status?: 'ok' | 'error';
  error?: string;
  /** ISO 8601 date-time when the call started. */
  start_time?: string;
  latency_ms?: number;
  tokens?: TraceTokens;
  /** When absent, computed from the price table per model. */
  cost_usd?: number;
  input?: unknown;
  output?: unknown;
  prompt_template?: PromptTemplateRef;
  user_id?: string;
  session_id?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
}
