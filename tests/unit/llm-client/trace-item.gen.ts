// Generated from traceItemSchema (plugins/llm/item-schema.ts) by tests/unit/llm-client/trace-item-contract.test.ts.
// Do not edit: run that test to write it again.

export type SchemaTraceItem = {
  model: string;
  id?: string;
  name?: string;
  provider?: string;
  status?: "ok" | "error";
  error?: string;
  start_time?: string;
  latency_ms?: number;
  tokens?: {
    input?: number;
    output?: number;
    cache_read?: number;
    total?: number;
  };
  cost_usd?: number;
  input?: unknown;
  output?: unknown;
  prompt_template?: {
    name: string;
    raw: string;
    variables?: Record<string, unknown>;
  };
  user_id?: string;
  session_id?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
};
