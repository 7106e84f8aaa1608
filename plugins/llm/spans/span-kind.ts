/**
 * What a span or observation is, in one vocabulary over every convention: `llm` (a model call), `agent`, `tool`,
 * `retriever`, `chain` (a workflow or step), `event` (a point in time), and `span` for anything the sender did not
 * classify (HTTP, database). The first attribute present wins: OpenInference's `openinference.span.kind`, OpenLLMetry's
 * `traceloop.span.kind`, the GenAI conventions' `gen_ai.operation.name`, then Langfuse's observation type.
 */
import type { OtlpAttributes } from '../otlp/otlp-model.js';

export const SPAN_KINDS = ['llm', 'agent', 'tool', 'retriever', 'chain', 'event', 'span'] as const;
export type SpanKind = typeof SPAN_KINDS[number];

/** OpenInference `openinference.span.kind` (upper case in its semantic conventions). */
const OPENINFERENCE: Record<string, SpanKind> = {
  LLM: 'llm', EMBEDDING: 'llm', AGENT: 'agent', TOOL: 'tool', RETRIEVER: 'retriever', RERANKER: 'retriever',
  CHAIN: 'chain', GUARDRAIL: 'chain', EVALUATOR: 'chain', PROMPT: 'chain',
};

/** OpenLLMetry `traceloop.span.kind` (`withWorkflow`, `withTask`, `withAgent`, `withTool`). */
const TRACELOOP: Record<string, SpanKind> = { workflow: 'chain', task: 'chain', agent: 'agent', tool: 'tool' };

/** GenAI semantic conventions `gen_ai.operation.name`. */
const GEN_AI: Record<string, SpanKind> = {
  chat: 'llm', text_completion: 'llm', generate_content: 'llm', embeddings: 'llm',
  execute_tool: 'tool', invoke_agent: 'agent', create_agent: 'agent',
};

/** Langfuse observation types (v3 SDK events, and `langfuse.observation.type` on OTLP), lower case. */
const LANGFUSE: Record<string, SpanKind> = {
  generation: 'llm', embedding: 'llm', agent: 'agent', tool: 'tool', retriever: 'retriever', chain: 'chain',
  evaluator: 'chain', guardrail: 'chain', span: 'span', event: 'event',
};

const lookup = (table: Record<string, SpanKind>, v: unknown, lower: boolean): SpanKind | undefined => {
  if (typeof v !== 'string') return undefined;
  const key = lower ? v.toLowerCase() : v.toUpperCase();
  return Object.hasOwn(table, key) ? table[key] : undefined;
};

/** The kind of an OTLP span that is not an LLM call (an LLM call is `llm` whatever it says). */
export function otlpSpanKind(a: OtlpAttributes): SpanKind {
  return lookup(OPENINFERENCE, a['openinference.span.kind'], false)
    ?? lookup(TRACELOOP, a['traceloop.span.kind'], true)
    ?? lookup(GEN_AI, a['gen_ai.operation.name'], true)
    ?? lookup(LANGFUSE, a['langfuse.observation.type'], true)
    ?? 'span';
}

/** The kind of a Langfuse observation by its type (`generation`, `span`, `event`, `agent`, …). */
export function langfuseKind(type: string | undefined): SpanKind {
  return lookup(LANGFUSE, type, true) ?? 'span';
}
