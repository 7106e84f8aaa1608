// Trace trees through the lane's OTLP task over a real store, on both backends: spans of one trace in separate
// exports in either order (held until an LLM call of the trace is stored), the bounds (spans per trace, bytes per
// span, the hold's count and time), redaction, and an export sent twice.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '@vigil/plugin-sdk';
import { effectiveSettings } from '../../../../../plugins/llm/effective-settings.js';
import { laneDeps } from '../../../../../plugins/llm/lane/lane-deps.js';
import { runLaneTask } from '../../../../../plugins/llm/lane/lane-tasks.js';
import type { LaneContext } from '../../../../../plugins/llm/lane/lane-types.js';
import { llmMigrations } from '../../../../../plugins/llm/migrations.js';
import { DEFAULT_SPAN_BOUNDS, type SpanBounds } from '../../../../../plugins/llm/spans/span-bounds.js';
import { deleteExpiredTrees, expireHeldSpans } from '../../../../../plugins/llm/spans/span-retention.js';
import type { SpanCounts } from '../../../../../plugins/llm/spans/span-store.js';
import { traceTreeJson } from '../../../../../plugins/llm/spans/tree-query.js';
import { spanItemId } from '../../../../../plugins/llm/otlp/item-id.js';
import type { LlmProject } from '../../../../../plugins/llm/types.js';
import { attr } from '../../../../support/otlp-genai-json.js';
import { backendKinds, type BackendKind } from '../../../runtime/store/backend-kinds.js';

type Json = Record<string, any>;
const project: LlmProject = { id: 'p1', name: 'alpha', source: 'store', settings: effectiveSettings({}, {}, 5e6) };
const T0 = Date.now() - 60_000;
const ns = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;
let traces = 0;
const newTrace = () => (++traces).toString(16).padStart(32, 'a');
const sid = (n: number) => n.toString(16).padStart(16, 'b');

/** An OTLP/JSON span: a tool (OpenInference) unless `llm`, which gives it a model and usage. */
function span(traceId: string, id: number, parent: number | null, at: [number, number], o: { llm?: boolean; input?: string; name?: string; kind?: string } = {}): Json {
  const attributes = o.llm
    ? [attr('gen_ai.request.model', 'gpt-4o-mini'), attr('gen_ai.usage.input_tokens', 10), attr('gen_ai.usage.output_tokens', 4)]
    : [attr('openinference.span.kind', o.kind ?? 'TOOL'), attr('input.value', o.input ?? 'Paris')];
  return {
    traceId, spanId: sid(id), ...(parent === null ? {} : { parentSpanId: sid(parent) }), name: o.name ?? (o.llm ? 'chat' : `step-${id}`), kind: 1,
    startTimeUnixNano: ns(T0 + at[0]), endTimeUnixNano: ns(T0 + at[1]), attributes, status: {},
  };
}
const body = (spans: Json[]) => ({ bytes: Buffer.from(JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 't' }, spans }] }] })), contentType: 'application/json' });

function define(kind: BackendKind) {
  const test = suite(`trace trees in the store (${kind.name})`);
  test.after(() => kind.cleanup());

  async function setup(bounds: Partial<SpanBounds> = {}) {
    const store: Store = (await kind.open(await kind.fresh())).forPlugin('llm');
    await store.migrate(llmMigrations);
    const deps = laneDeps(store);
    const ctx = (): LaneContext => ({ project, prices: {}, now: Date.now(), withTraces: false, spans: { ...DEFAULT_SPAN_BOUNDS, ...bounds } });
    const send = async (spans: Json[]): Promise<SpanCounts | undefined> => {
      const r = await runLaneTask(deps, { kind: 'otlp-traces', ctx: ctx(), body: body(spans) });
      assert.is(r.refusal, undefined);
      return r.counts.spans;
    };
    const tree = async (traceId: string, spanId: number): Promise<Json> => JSON.parse(await traceTreeJson(store, project.id, spanItemId(traceId, sid(spanId))));
    const held = async () => Number((await store.query<{ n: number | string | null }>('SELECT SUM(spans) AS n FROM llm_span_traces WHERE has_llm = 0'))[0].n ?? 0);
    return { store, send, tree, held };
  }

  test('children before parents, the tool before the LLM call, in four exports: one tree, held until the call came', async () => {
    const { send, tree, held } = await setup();
    const t = newTrace();
    assert.equal(await send([span(t, 2, 1, [10, 20])]), { stored: 1, held: 1, droppedTraceLimit: 0, droppedHoldFull: 0 });
    assert.is(await held(), 1);
    await send([span(t, 3, 1, [30, 80], { llm: true })]);
    assert.is(await held(), 0, 'the trace is kept once its LLM call is stored');
    await send([span(t, 4, 1, [90, 95])]);
    await send([span(t, 1, null, [0, 100], { kind: 'AGENT', name: 'agent' })]);
    const tr = await tree(t, 3);
    assert.equal(tr.nodes.map((n: Json) => [n.name, n.depth, n.kind]), [['agent', 0, 'agent'], ['step-2', 1, 'tool'], ['chat', 1, 'llm'], ['step-4', 1, 'tool']]);
    assert.is(tr.held, false);
    assert.equal(tr.total.tokens, { input: 10, output: 4, total: 14 });
    assert.is(tr.total.latency_ms, 100);
    assert.is(tr.nodes[2].item_id, spanItemId(t, sid(3)));
    assert.is(tr.nodes[2].data.input, null, 'an LLM call\'s input is its item\'s, not copied');
  });

  test('an export sent twice stores and counts nothing more', async () => {
    const { send, tree } = await setup();
    const t = newTrace();
    const spans = [span(t, 1, null, [0, 100], { kind: 'AGENT' }), span(t, 2, 1, [10, 50], { llm: true }), span(t, 3, 1, [60, 70])];
    assert.equal(await send(spans), { stored: 3, held: 0, droppedTraceLimit: 0, droppedHoldFull: 0 });
    assert.equal(await send(spans), { stored: 0, held: 0, droppedTraceLimit: 0, droppedHoldFull: 0 });
    assert.is((await tree(t, 2)).spans, 3);
  });

  test('past max_per_trace other spans are dropped and counted on the trace; its LLM calls are kept', async () => {
    const { send, tree } = await setup({ maxPerTrace: 3 });
    const t = newTrace();
    const counts = await send([
      span(t, 1, null, [0, 100], { kind: 'AGENT' }), span(t, 2, 1, [1, 2]), span(t, 3, 1, [3, 4]), span(t, 4, 1, [5, 6]), span(t, 5, 1, [7, 8]),
      span(t, 6, 1, [10, 20], { llm: true }), span(t, 7, 1, [30, 40], { llm: true }),
    ]);
    assert.equal(counts, { stored: 5, held: 0, droppedTraceLimit: 2, droppedHoldFull: 0 });
    const tr = await tree(t, 7);
    assert.is(tr.dropped_spans, 2);
    assert.is(tr.nodes.filter((n: Json) => n.kind === 'llm').length, 2);
    assert.is(tr.total.llm_calls, 2);
  });

  test('bytes per span: the largest parts are left out, named with their size; what is kept is redacted', async () => {
    const { send, tree } = await setup({ maxBytes: 200 });
    const t = newTrace();
    await send([
      span(t, 1, null, [0, 100], { kind: 'AGENT', input: `mail bob@example.com ${'x'.repeat(400)}` }),
      span(t, 2, 1, [10, 20], { input: 'mail bob@example.com please' }),
      span(t, 3, 1, [30, 40], { llm: true }),
    ]);
    const tr = await tree(t, 3);
    assert.is(tr.truncated_spans, 1);
    const [root, tool] = tr.nodes;
    assert.is(root.truncated, true);
    assert.is(root.data.input, null);
    assert.ok(root.data.truncated.input > 400);
    assert.is(tool.truncated, false);
    assert.not.ok(JSON.stringify(tr).includes('bob@example.com'));
    assert.match(tool.data.input, /\[REDACTED/);
  });

  test('held spans: at most hold_max_spans per project, then dropped; expired after the hold unless a call came', async () => {
    const { store, send, held } = await setup({ holdMaxSpans: 3 });
    const a = newTrace();
    const b = newTrace();
    assert.equal(await send([span(a, 1, null, [0, 10]), span(a, 2, 1, [1, 2]), span(b, 1, null, [0, 10]), span(b, 2, 1, [1, 2])]),
      { stored: 3, held: 3, droppedTraceLimit: 0, droppedHoldFull: 1 });
    // A kept trace is not held: its spans are never refused for the hold's sake.
    const c = newTrace();
    assert.equal(await send([span(c, 1, null, [0, 10], { llm: true }), span(c, 2, 1, [1, 2])]), { stored: 2, held: 0, droppedTraceLimit: 0, droppedHoldFull: 0 });
    // Trace a gets its call: kept. Trace b never does: its spans go when the hold is over.
    await send([span(a, 3, 1, [3, 4], { llm: true })]);
    assert.is(await held(), 1);
    assert.is(await expireHeldSpans(store, 60_000, Date.now()), 0, 'still within the hold');
    assert.is(await expireHeldSpans(store, 60_000, Date.now() + 61_000), 1);
    assert.is(await held(), 0);
    const left = await store.query<{ trace_id: string }>('SELECT DISTINCT trace_id FROM llm_spans ORDER BY trace_id');
    assert.equal(left.map((r) => r.trace_id), [a, c].sort());
  });

  test('retention: trees older than the project\'s retention go, and every tree of a project no longer listed', async () => {
    const { store, send } = await setup();
    const t = newTrace();
    await send([span(t, 1, null, [0, 10], { llm: true }), span(t, 2, 1, [1, 2])]);
    assert.is(await deleteExpiredTrees(store, [{ id: 'p1', retentionMs: 3_600_000 }], Date.now()), 0);
    assert.is(await deleteExpiredTrees(store, [{ id: 'p1', retentionMs: 3_600_000 }], Date.now() + 3_700_000), 1);
    await send([span(newTrace(), 1, null, [0, 10], { llm: true })]);
    assert.is(await deleteExpiredTrees(store, [], Date.now() + 1), 1);
    assert.equal(await store.query('SELECT * FROM llm_spans'), []);
  });

  test('a call stored without spans has an empty tree; an unknown id is TRACE_NOT_FOUND', async () => {
    const { store } = await setup();
    const deps = laneDeps(store);
    const id = '00000000-0000-4000-8000-00000000000a';
    const items = { bytes: Buffer.from(JSON.stringify({ traces: [{ id, model: 'gpt-4o-mini' }] })), contentType: 'application/json' };
    const r = await runLaneTask(deps, { kind: 'traces', ctx: { project, prices: {}, now: Date.now(), withTraces: false }, body: items });
    assert.is(r.counts.stored, 1);
    const empty = JSON.parse(await traceTreeJson(store, project.id, id));
    assert.equal([empty.trace_id, empty.item_id, empty.nodes, empty.total.llm_calls], [null, id, [], 0]);
    let code: string | undefined;
    try {
      await traceTreeJson(store, project.id, '00000000-0000-4000-8000-00000000000b');
    } catch (err) {
      code = (err as { code?: string }).code;
    }
    assert.is(code, 'VIGIL_ERR_LLM_TRACE_NOT_FOUND');
  });

  return test;
}

for (const kind of await backendKinds('llm_span_store')) define(kind).run();
