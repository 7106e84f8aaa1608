/**
 * The tree of the trace an LLM call belongs to, as the API answers it (`GET /api/v1/traces/:id/tree` and the
 * dashboard's twin). Bounds: at most MAX_TREE_SPANS spans are read (past it `more` is true), and the spans' stored
 * data (input, output, attributes; each at most `llm.spans.max_bytes`) is spliced into the answer as stored, never
 * parsed, up to MAX_TREE_DATA_BYTES; spans past it come with `data: null` and `data_omitted: true`.
 */
import { httpError, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import { buildTree, type Rollup, type TreeSpanRow } from './trace-tree.js';

/** Spans one answer reads and builds into a tree on the event loop: few enough to hold it for milliseconds, not the 50 ms budget. */
export const MAX_TREE_SPANS = 2_000;
export const MAX_TREE_DATA_BYTES = 8 * 1024 * 1024;

type Row = TreeSpanRow & { trace_id: string; source: string; truncated: number | string; data: string };

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const rollupJson = (r: Rollup) => ({
  llm_calls: r.llm_calls, errors: r.errors, cost_usd: Math.round(r.cost_usd * 1e9) / 1e9, tokens: r.tokens, latency_ms: r.latency_ms,
});

const emptyTree = (itemId: string) => ({
  trace_id: null, source: null, item_id: itemId, name: null, start_time: null, end_time: null, held: false, spans: 0,
  dropped_spans: 0, truncated_spans: 0, more: false,
  total: { llm_calls: 0, errors: 0, cost_usd: 0, tokens: { input: 0, output: 0, total: 0 }, latency_ms: null }, nodes: [],
});

/**
 * The trace tree holding item `itemId` of the project, as JSON text; 404 when the item is not stored. A call stored
 * without spans (`POST /v1/traces`, or spans past retention) has an empty tree: `trace_id` null, no nodes.
 */
export async function traceTreeJson(store: Store, projectId: string, itemId: string): Promise<string> {
  const id = itemId.toLowerCase();
  const spans = store.table('spans');
  const items = store.table('traces');
  const found = await store.query<{ trace_id: string }>(`SELECT trace_id FROM ${spans} WHERE project_id = ? AND item_id = ? LIMIT 1`, [projectId, id]);
  if (!found.length) {
    const item = await store.query<{ id: string }>(`SELECT id FROM ${items} WHERE project_id = ? AND id = ?`, [projectId, id]);
    if (!item.length) throw httpError(LlmErrors.TRACE_NOT_FOUND, `the project has no stored trace ${JSON.stringify(itemId)}`);
    return JSON.stringify(emptyTree(id));
  }
  const traceId = found[0].trace_id;
  const [summary] = await store.query<{ has_llm: number | string; spans: number | string; dropped: number | string; truncated: number | string }>(
    `SELECT has_llm, spans, dropped, truncated FROM ${store.table('span_traces')} WHERE project_id = ? AND trace_id = ?`, [projectId, traceId]);
  const rows = await store.query<Row>(
    `SELECT s.trace_id, s.source, s.span_id, s.parent_id, s.kind, s.name, s.start_ms, s.end_ms, s.status, s.item_id, s.truncated, s.data,
       t.model, t.input_tokens, t.output_tokens, t.total_tokens, t.cost_usd, t.status AS item_status
     FROM ${spans} s LEFT JOIN ${items} t ON t.project_id = s.project_id AND t.id = s.item_id
     WHERE s.project_id = ? AND s.trace_id = ? ORDER BY s.start_ms, s.span_id LIMIT ?`, [projectId, traceId, MAX_TREE_SPANS + 1]);
  const more = rows.length > MAX_TREE_SPANS;
  if (more) rows.pop();
  for (const r of rows) {
    r.start_ms = num(r.start_ms); r.end_ms = num(r.end_ms);
    r.input_tokens = num(r.input_tokens); r.output_tokens = num(r.output_tokens); r.total_tokens = num(r.total_tokens); r.cost_usd = num(r.cost_usd);
    // An item deleted by retention before its span: the span stays, not linked.
    if (r.item_id !== null && r.model === null) r.item_id = null;
  }
  const { nodes, total } = buildTree(rows);
  let dataBytes = 0;
  const parts = nodes.map((n) => {
    const r = n.row as Row;
    const own = r.start_ms !== null && r.end_ms !== null && r.end_ms >= r.start_ms ? Math.round((r.end_ms - r.start_ms) * 1000) / 1000 : null;
    const head = {
      span_id: r.span_id, parent_id: r.parent_id, depth: n.depth, orphan: n.orphan, children: n.children, kind: r.kind, name: r.name,
      status: r.item_status === 'error' ? 'error' : r.status,
      start_time: iso(r.start_ms), end_time: iso(r.end_ms), duration_ms: own,
      offset_ms: r.start_ms !== null && total.start_ms !== null ? Math.round((r.start_ms - total.start_ms) * 1000) / 1000 : null,
      item_id: r.item_id, model: r.model ?? null,
      tokens: r.item_id === null ? null : { input: r.input_tokens, output: r.output_tokens, total: r.total_tokens },
      cost_usd: r.item_id === null ? null : r.cost_usd,
      truncated: Number(r.truncated) === 1,
      rollup: rollupJson(n.rollup),
    };
    const text = JSON.stringify(head);
    dataBytes += Buffer.byteLength(r.data, 'utf8');
    const data = dataBytes <= MAX_TREE_DATA_BYTES ? r.data : null;
    return `${text.slice(0, -1)},"data_omitted":${data === null},"data":${data ?? 'null'}}`;
  });
  const top = {
    trace_id: traceId,
    source: rows[0]?.source ?? 'otlp',
    item_id: id,
    name: nodes[0]?.row.name ?? null,
    start_time: iso(total.start_ms),
    end_time: iso(total.end_ms),
    held: summary ? Number(summary.has_llm) !== 1 : false,
    spans: summary ? Number(summary.spans) : rows.length,
    dropped_spans: summary ? Number(summary.dropped) : 0,
    truncated_spans: summary ? Number(summary.truncated) : 0,
    more,
    total: rollupJson(total),
  };
  return `${JSON.stringify(top).slice(0, -1)},"nodes":[${parts.join(',')}]}`;
}
