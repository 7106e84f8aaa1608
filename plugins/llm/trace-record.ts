import type { SqlValue } from '@vigil/plugin-sdk';
import type { QueuedItem } from './queued-item.js';

/** The prompt template as a stored trace carries it: its version, not its text (the version holds that). */
export interface StoredTemplate {
  name: string;
  version: number;
  hash: string;
  variables?: unknown;
}

/** What redaction is applied to: the parts of an item that carry user data. JSON paths are written over this shape. */
export interface RedactedParts {
  input?: unknown;
  output?: unknown;
  metadata?: unknown;
  error?: unknown;
  prompt_template?: { variables?: unknown };
}

/** Columns of `llm_traces`, in the order `traceRow` gives them. */
export const TRACE_COLUMNS = [
  'id', 'created_at', 'project_id', 'model', 'status', 'latency_ms', 'input_tokens', 'output_tokens', 'total_tokens',
  'cost_usd', 'template', 'version', 'user_id', 'session_id', 'tags', 'trace',
] as const;

/** PostgreSQL's TEXT cannot hold U+0000; an item's strings can. Columns get U+FFFD in its place (the JSON escapes it). */
export const noNul = (s: string): string => (s.includes('\u0000') ? s.replace(/\u0000/g, '\uFFFD') : s);
const optional = (s: string | undefined): string | null => (s === undefined ? null : noNul(s));

/**
 * The stored trace, as the public API answers it: every key present (null when the item had none), the user data
 * from `redacted`, never from the item.
 */
export function storedTrace(item: QueuedItem, redacted: RedactedParts, template: StoredTemplate | null): Record<string, unknown> {
  const status = item.status ?? (item.error !== undefined ? 'error' : 'ok');
  return {
    id: item.id,
    created_at: new Date(item.created_at).toISOString(),
    model: item.model,
    provider: item.provider ?? null,
    name: item.name ?? null,
    status,
    error: redacted.error ?? null,
    start_time: item.start_time ?? null,
    latency_ms: item.latency_ms ?? null,
    tokens: item.tokens ?? null,
    cost_usd: item.cost_usd ?? null,
    cost_estimated: item.cost_estimated === true,
    input: redacted.input ?? null,
    output: redacted.output ?? null,
    prompt_template: template,
    user_id: item.user_id ?? null,
    session_id: item.session_id ?? null,
    tags: item.tags ?? [],
    metadata: redacted.metadata ?? null,
    // Only on a trace stored before its call ended (absent otherwise, as on every trace stored before it existed).
    ...(item.incomplete ? { incomplete: item.incomplete } : {}),
  };
}

/** The row of `llm_traces` for a stored trace. */
export function traceRow(projectId: string, item: QueuedItem, trace: Record<string, unknown>, template: StoredTemplate | null): SqlValue[] {
  const t = item.tokens;
  const total = t?.total ?? (t?.input !== undefined || t?.output !== undefined ? (t.input ?? 0) + (t.output ?? 0) : null);
  return [
    item.id, item.created_at, projectId, noNul(item.model), trace.status as string, item.latency_ms ?? null,
    t?.input ?? null, t?.output ?? null, total, item.cost_usd ?? null,
    template ? noNul(template.name) : null, template?.version ?? null, optional(item.user_id), optional(item.session_id),
    item.tags?.length ? noNul(JSON.stringify(item.tags)) : null, JSON.stringify(trace),
  ];
}
