import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildTree, type TreeSpanRow } from '../../../../../plugins/llm/spans/trace-tree.js';

const row = (span_id: string, parent_id: string | null, start: number | null, end: number | null, o: Partial<TreeSpanRow> = {}): TreeSpanRow => ({
  span_id, parent_id, kind: 'span', name: span_id, start_ms: start, end_ms: end, status: 'ok', item_id: null, model: null,
  input_tokens: null, output_tokens: null, total_tokens: null, cost_usd: null, item_status: null, ...o,
});
const llm = (span_id: string, parent_id: string, start: number, end: number, tokens: [number, number], cost: number, o: Partial<TreeSpanRow> = {}) =>
  row(span_id, parent_id, start, end, { kind: 'llm', item_id: `item-${span_id}`, model: 'gpt-4o-mini', input_tokens: tokens[0], output_tokens: tokens[1], total_tokens: tokens[0] + tokens[1], cost_usd: cost, ...o });

test('depth first, parents before children, siblings by start time (then end), whatever the row order', () => {
  const rows = [
    llm('l2', 'agent', 300, 400, [5, 5], 0.5),
    row('tool', 'agent', 250, 260),
    row('agent', null, 0, 500, { kind: 'agent' }),
    llm('l1', 'agent', 100, 240, [10, 2], 0.25),
    row('lookup', 'agent', 100, 100.5),
    row('inner', 'tool', 251, 255),
  ];
  const { nodes, total } = buildTree(rows);
  assert.equal(nodes.map((n) => [n.row.span_id, n.depth]), [['agent', 0], ['lookup', 1], ['l1', 1], ['tool', 1], ['inner', 2], ['l2', 1]]);
  assert.equal(nodes.map((n) => n.children), [4, 0, 0, 1, 0, 0]);
  assert.equal(total.tokens, { input: 15, output: 7, total: 22 });
  assert.is(total.llm_calls, 2);
  assert.is(total.cost_usd, 0.75);
  assert.is(total.latency_ms, 500);
  const tool = nodes.find((n) => n.row.span_id === 'tool')!;
  assert.is(tool.rollup.llm_calls, 0);
  assert.is(tool.rollup.latency_ms, 10);
  assert.equal(nodes[0].rollup.tokens, total.tokens);
});

test('a span whose parent is not stored is a root marked orphan; errors roll up from spans and from items', () => {
  const { nodes, total } = buildTree([
    row('root', null, 0, 10),
    row('lost', 'never-came', 5, 50, { status: 'error' }),
    llm('call', 'lost', 6, 8, [1, 1], 0.1, { item_status: 'error' }),
  ]);
  assert.equal(nodes.map((n) => [n.row.span_id, n.depth, n.orphan]), [['root', 0, false], ['lost', 0, true], ['call', 1, false]]);
  assert.is(nodes[1].rollup.errors, 2);
  assert.is(total.errors, 2);
  assert.is(total.latency_ms, 50);
});

test('a loop of parents is cut: every span appears once', () => {
  const { nodes } = buildTree([row('a', 'b', 1, 2), row('b', 'a', 0, 3), row('self', 'self', 4, 5)]);
  assert.equal(nodes.map((n) => n.row.span_id).sort(), ['a', 'b', 'self']);
  assert.is(new Set(nodes.map((n) => n.row.span_id)).size, 3);
});

test('a chain 100,000 deep builds without overflowing the stack', () => {
  const rows = [row('s0', null, 0, 1e6)];
  for (let i = 1; i < 100_000; i++) rows.push(row(`s${i}`, `s${i - 1}`, i, 1e6 - i));
  rows.push(llm('leaf', 's99999', 500_000, 500_001, [3, 4], 0.01));
  const { nodes, total } = buildTree(rows);
  assert.is(nodes.length, 100_001);
  assert.is(nodes[nodes.length - 1].depth, 100_000);
  assert.is(nodes[0].rollup.llm_calls, 1);
  assert.is(total.tokens.total, 7);
});

test('spans without times: no latency, sorted last', () => {
  const { nodes, total } = buildTree([row('timeless', null, null, null), row('timed', null, 5, 6)]);
  assert.equal(nodes.map((n) => n.row.span_id), ['timed', 'timeless']);
  assert.is(nodes[1].rollup.latency_ms, null);
  assert.is(total.latency_ms, 1);
});

test.run();
