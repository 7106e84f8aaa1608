/**
 * A trace's stored spans → its tree, with figures rolled up per subtree: LLM calls, cost, tokens, errors and the
 * subtree's time extent (latency). Pure; the rows come from tree-query.ts. A span whose parent is not stored (not
 * sent yet, dropped by the bounds) is a root marked `orphan`; a parent chain that loops is cut where it repeats.
 */

export type TreeSpanRow = {
  span_id: string;
  parent_id: string | null;
  kind: string;
  name: string;
  start_ms: number | null;
  end_ms: number | null;
  status: string;
  item_id: string | null;
  /** Of the linked item (llm_traces), when there is one. */
  model: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
  cost_usd: number | null;
  item_status: string | null;
};

export interface Rollup {
  llm_calls: number;
  errors: number;
  cost_usd: number;
  tokens: { input: number; output: number; total: number };
  /** From the subtree's first start to its last end; null when no span of it has both. */
  latency_ms: number | null;
  start_ms: number | null;
  end_ms: number | null;
}

export interface TreeNode {
  row: TreeSpanRow;
  depth: number;
  orphan: boolean;
  children: number;
  rollup: Rollup;
}

const emptyRollup = (): Rollup => ({ llm_calls: 0, errors: 0, cost_usd: 0, tokens: { input: 0, output: 0, total: 0 }, latency_ms: null, start_ms: null, end_ms: null });

const time = (v: number | null): number => v ?? Infinity;
/**
 * Siblings by start, then by end: many SDKs stamp starts to the millisecond (OpenTelemetry JS takes Date.now() and
 * adds a precise duration), so a step and the next one often share a start, and the one that ended first ran first.
 */
const byStart = (a: TreeSpanRow, b: TreeSpanRow): number =>
  (time(a.start_ms) - time(b.start_ms) || time(a.end_ms) - time(b.end_ms)) || (a.span_id < b.span_id ? -1 : a.span_id > b.span_id ? 1 : 0);

/** The own figures of one span: an LLM call's from its item. */
function ownRollup(r: TreeSpanRow): Rollup {
  const u = emptyRollup();
  if (r.item_id !== null) {
    u.llm_calls = 1;
    u.cost_usd = r.cost_usd ?? 0;
    u.tokens.input = r.input_tokens ?? 0;
    u.tokens.output = r.output_tokens ?? 0;
    u.tokens.total = r.total_tokens ?? (r.input_tokens ?? 0) + (r.output_tokens ?? 0);
  }
  if (r.status === 'error' || r.item_status === 'error') u.errors = 1;
  u.start_ms = r.start_ms;
  u.end_ms = r.end_ms !== null && r.start_ms !== null && r.end_ms >= r.start_ms ? r.end_ms : r.start_ms;
  return u;
}

function add(into: Rollup, from: Rollup): void {
  into.llm_calls += from.llm_calls;
  into.errors += from.errors;
  into.cost_usd += from.cost_usd;
  into.tokens.input += from.tokens.input;
  into.tokens.output += from.tokens.output;
  into.tokens.total += from.tokens.total;
  if (from.start_ms !== null) into.start_ms = into.start_ms === null ? from.start_ms : Math.min(into.start_ms, from.start_ms);
  if (from.end_ms !== null) into.end_ms = into.end_ms === null ? from.end_ms : Math.max(into.end_ms, from.end_ms);
}

/**
 * The nodes in depth-first order (each parent before its children, siblings by start time), each with its depth and
 * its subtree's rollup, and the rollup of the whole trace. Iterative: a trace of any depth never overflows the stack.
 */
export function buildTree(rows: readonly TreeSpanRow[]): { nodes: TreeNode[]; total: Rollup } {
  const byId = new Map<string, TreeSpanRow>();
  for (const r of rows) if (!byId.has(r.span_id)) byId.set(r.span_id, r);
  const children = new Map<string, TreeSpanRow[]>();
  const roots: TreeSpanRow[] = [];
  for (const r of byId.values()) {
    if (r.parent_id !== null && r.parent_id !== r.span_id && byId.has(r.parent_id)) {
      let list = children.get(r.parent_id);
      if (!list) children.set(r.parent_id, (list = []));
      list.push(r);
    } else roots.push(r);
  }
  roots.sort(byStart);
  for (const list of children.values()) list.sort(byStart);

  const nodes: TreeNode[] = [];
  const visited = new Set<string>();
  const visit = (root: TreeSpanRow) => {
    const stack: { row: TreeSpanRow; depth: number }[] = [{ row: root, depth: 0 }];
    while (stack.length) {
      const { row, depth } = stack.pop()!;
      if (visited.has(row.span_id)) continue;
      visited.add(row.span_id);
      const kids = (children.get(row.span_id) ?? []).filter((k) => !visited.has(k.span_id));
      nodes.push({ row, depth, orphan: depth === 0 && row.parent_id !== null, children: kids.length, rollup: ownRollup(row) });
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ row: kids[i], depth: depth + 1 });
    }
  };
  for (const r of roots) visit(r);
  // Spans only reachable through a loop of parents: each unvisited one starts a tree of its own.
  for (const r of [...byId.values()].sort(byStart)) if (!visited.has(r.span_id)) visit(r);

  // Children follow their parent in `nodes`: walking backwards, every subtree is complete before its parent's turn.
  const total = emptyRollup();
  const open: number[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i];
    while (open.length && nodes[open[open.length - 1]].depth > n.depth) {
      const child = nodes[open.pop()!];
      add(n.rollup, child.rollup);
    }
    open.push(i);
  }
  for (const i of open) add(total, nodes[i].rollup);
  for (const n of [...nodes.map((x) => x.rollup), total]) {
    n.latency_ms = n.start_ms !== null && n.end_ms !== null ? Math.round((n.end_ms - n.start_ms) * 1000) / 1000 : null;
  }
  return { nodes, total };
}
