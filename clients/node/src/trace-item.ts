/**
 * The native trace item, one element of `POST /v1/traces`'s `{ "traces": [ … ] }`. Written here because this package
 * is published on its own and depends on no server code; tests/unit/llm-client/trace-item-contract.ts checks it
 * against the type the server's item schema (plugins/llm/item-schema.ts) defines, so the two cannot drift.
 */
export interface TraceTokens {
  input?: number;
  output?: number;
  /** Input tokens served from the provider's prompt cache (OpenAI: `prompt_tokens_details.cached_tokens`). */
  cache_read?: number;
  total?: number;
}

export interface PromptTemplateRef {
  name: string;
  /** The template text before variables were filled in; the server normalises and hashes it into versions. */
  raw: string;
  variables?: Record<string, unknown>;
}

export interface TraceItem {
  /** The model as the provider reports it (`gpt-4o-mini-2024-07-18`). Required. */
  model: string;
  /** A UUID; the client always sets one, so a retried batch is never stored twice. */
  id?: string;
  name?: string;
  provider?: string;
  status?: 'ok' | 'error';
  error?: string;
  /** ISO 8601 date-time when the call started. */
  start_time?: string;
  latency_ms?: number;
  tokens?: TraceTokens;
  /** When absent, the server computes it from its price table. */
  cost_usd?: number;
  input?: unknown;
  output?: unknown;
  prompt_template?: PromptTemplateRef;
  user_id?: string;
  session_id?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
}
