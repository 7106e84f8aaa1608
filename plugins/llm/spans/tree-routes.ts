import { closedObject, type HttpRoutes, type JsonSchema, type RouteContext, type Store } from '@vigil/plugin-sdk';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { SPAN_KINDS } from './span-kind.js';
import { MAX_TREE_DATA_BYTES, MAX_TREE_SPANS, traceTreeJson } from './tree-query.js';

const count: JsonSchema = { type: 'integer', minimum: 0 };
const nullableIso: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const nullableNumber: JsonSchema = { type: ['number', 'null'] };
const nullableText: JsonSchema = { type: ['string', 'null'] };

const rollup = closedObject({
  llm_calls: count,
  errors: count,
  cost_usd: { type: 'number', description: 'USD of the LLM calls in the subtree.' },
  tokens: closedObject({ input: count, output: count, total: count }),
  latency_ms: { ...nullableNumber, description: 'From the subtree\'s first start to its last end.' },
}, { title: 'TreeRollup' });

const spanData = closedObject({
  input: {},
  output: {},
  attributes: { description: 'The span\'s attributes (Langfuse: its fields and metadata), redacted as an item\'s metadata.' },
  error: {},
  truncated: { anyOf: [{ type: 'null' }, { type: 'object', additionalProperties: count }], description: 'Parts left out to fit llm.spans.max_bytes, with their size in bytes.' },
  redaction_failed: { type: 'boolean' },
}, { title: 'TreeSpanData', optional: ['redaction_failed'] });

const node = closedObject({
  span_id: { type: 'string' },
  parent_id: nullableText,
  depth: count,
  orphan: { type: 'boolean', description: 'Its parent is not stored (not sent yet, or dropped by the bounds).' },
  children: count,
  kind: { enum: [...SPAN_KINDS] },
  name: { type: 'string' },
  status: { enum: ['ok', 'error'] },
  start_time: nullableIso,
  end_time: nullableIso,
  duration_ms: nullableNumber,
  offset_ms: { ...nullableNumber, description: 'From the trace\'s start.' },
  item_id: { ...nullableText, description: 'The stored LLM call this span is (GET /api/v1/traces/:item_id has its input and output).' },
  model: nullableText,
  tokens: { anyOf: [{ type: 'null' }, closedObject({ input: { type: ['integer', 'null'] }, output: { type: ['integer', 'null'] }, total: { type: ['integer', 'null'] } })] },
  cost_usd: nullableNumber,
  truncated: { type: 'boolean' },
  rollup,
  data_omitted: { type: 'boolean' },
  data: { anyOf: [{ type: 'null' }, spanData] },
}, { title: 'TreeSpan' });

export const traceTreeSchema = closedObject({
  trace_id: { ...nullableText, description: 'The OpenTelemetry or Langfuse trace id; null (and no nodes) for a call stored without spans.' },
  source: { enum: ['otlp', 'langfuse', null] },
  item_id: { type: 'string' },
  name: nullableText,
  start_time: nullableIso,
  end_time: nullableIso,
  held: { type: 'boolean', description: 'No LLM call of the trace is stored (its spans are held for llm.spans.hold).' },
  spans: count,
  dropped_spans: { ...count, description: 'Spans the bounds dropped (llm.spans.max_per_trace).' },
  truncated_spans: { ...count, description: 'Spans stored with parts left out (llm.spans.max_bytes).' },
  more: { type: 'boolean', description: `More than ${MAX_TREE_SPANS} spans: the rest are not in this answer.` },
  total: rollup,
  nodes: { type: 'array', items: node, description: 'Depth first: each parent before its children, siblings by start time.' },
}, { title: 'TraceTree' });

const DESCRIPTION = 'The tree of spans around an LLM call (agent steps, tool calls, retrievals), with cost, tokens and latency '
  + `rolled up per subtree and for the trace. At most ${MAX_TREE_SPANS} spans; span data spliced as stored up to `
  + `${MAX_TREE_DATA_BYTES / 1024 / 1024} MiB, then \`data: null\` and \`data_omitted\`. A call stored without spans (POST /v1/traces) has no nodes.`;

const json = (ctx: RouteContext, text: string): Buffer => {
  ctx.type = 'application/json';
  return Buffer.from(text);
};

/** `GET /api/v1/traces/:id/tree` (project key) and its dashboard twin under `/api/llm/projects/:project`. */
export function registerTreeRoutes(http: HttpRoutes, store: Store, projectId: (ctx: RouteContext) => Promise<string>): void {
  http.route({
    method: 'GET', path: '/api/v1/traces/:id/tree', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'The trace tree around one stored LLM call of the key\'s project',
    description: DESCRIPTION,
    response: traceTreeSchema,
    handler: async (ctx) => json(ctx, await traceTreeJson(store, projectOf(ctx).id, ctx.params.id)),
  });
  http.route({
    method: 'GET', path: '/api/llm/projects/:project/traces/:id/tree', tags: ['llm'],
    summary: 'The trace tree around one LLM call of a project, as GET /api/v1/traces/:id/tree',
    description: DESCRIPTION,
    response: traceTreeSchema,
    handler: async (ctx) => json(ctx, await traceTreeJson(store, await projectId(ctx), ctx.params.id)),
  });
}
