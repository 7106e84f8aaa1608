// Langfuse upserts in the LLM lane, on both backends: a generation never ended is stored incomplete by the idle
// task; updates that come after a generation was stored replace its trace once, redacted, in revision order, and
// are published as updates. Two store handles on one database stand for two processes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import type { PersistedTrace, Store } from '@vigil/plugin-sdk';
import { effectiveSettings } from '../../../../../plugins/llm/effective-settings.js';
import { acceptItems } from '../../../../../plugins/llm/lane/accept-items.js';
import { laneDeps } from '../../../../../plugins/llm/lane/lane-deps.js';
import { syncStoredTraces } from '../../../../../plugins/llm/lane/langfuse-upserts.js';
import { runLaneTask } from '../../../../../plugins/llm/lane/lane-tasks.js';
import type { LaneContext, LaneResult, StoredTrace } from '../../../../../plugins/llm/lane/lane-types.js';
import { withLangfuseState } from '../../../../../plugins/llm/langfuse-state.js';
import { takeUnended } from '../../../../../plugins/llm/langfuse/unended.js';
import { llmMigrations } from '../../../../../plugins/llm/migrations.js';
import type { LlmProject } from '../../../../../plugins/llm/types.js';
import { backendKinds, type BackendKind } from '../../../runtime/store/backend-kinds.js';
import type { Json } from '../../../../support/llm-client.js';

const project: LlmProject = { id: 'p1', name: 'alpha', source: 'store', settings: effectiveSettings({}, {}, 5e6) };
const ctxOf = (now = Date.now()): LaneContext => ({ project, prices: {}, now, withTraces: true });
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

type Event = { id: string; type: string; timestamp: string; body: Record<string, unknown> };
const event = (type: string, msAgo: number, body: Record<string, unknown>, id = randomUUID()): Event => ({ id, type, timestamp: iso(msAgo), body });
const body = (events: Event[]) => ({ bytes: new Uint8Array(Buffer.from(JSON.stringify({ batch: events }))), contentType: 'application/json' });

/** A generation's create as the v3 SDK sends it: output and usage, no end. */
const create = (id: string, msAgo = 60_000, extra: Record<string, unknown> = {}) => event('generation-create', msAgo, {
  id, traceId: 'trace-1', name: 'answer', model: 'gpt-4o-mini', startTime: iso(msAgo), input: [{ role: 'user', content: 'hi' }],
  output: { content: 'draft' }, usageDetails: { input: 10, output: 2 }, ...extra,
});
const end = (id: string, msAgo: number, extra: Record<string, unknown> = {}) => event('generation-update', msAgo, {
  id, endTime: iso(msAgo), output: { content: 'final answer' }, usageDetails: { input: 10, output: 30 }, costDetails: { total: 0.004 }, ...extra,
});

/** What the main thread publishes of a result: stored traces, then updates. */
const publishedOf = (r: LaneResult): PersistedTrace[] => [...r.stored, ...r.updated.map((t) => ({ ...t, update: true as const }))]
  .map((t: StoredTrace & { update?: true }) => {
    const { json, ...ref } = t;
    return { ...ref, trace: JSON.parse(json!) as Record<string, unknown> };
  });

function define(kind: BackendKind) {
  const test = suite(`Langfuse upserts in the lane (${kind.name})`);
  test.after(() => kind.cleanup());

  /** A "process": its own store handle and lane deps. */
  function processOn(store: Store) {
    const deps = laneDeps(store);
    const published: PersistedTrace[] = [];
    const run = async (task: Parameters<typeof runLaneTask>[1]) => {
      const r = await runLaneTask(deps, task);
      assert.is(r.refusal, undefined, JSON.stringify(r.refusal));
      published.push(...publishedOf(r));
      return r;
    };
    return {
      deps, published,
      send: (events: Event[]) => run({ kind: 'langfuse', ctx: ctxOf(), body: body(events) }),
      /** The idle sweep's task, with every generation untouched since before now + 1 s counted idle. */
      sweep: (before = Date.now() + 1_000) => run({ kind: 'langfuse-unended', ctx: ctxOf(), before, limit: 500 }),
    };
  }

  async function setup() {
    const url = await kind.fresh();
    const store = (await kind.open(url)).forPlugin('llm');
    await store.migrate(llmMigrations);
    const other = (await kind.open(url)).forPlugin('llm');
    const trace = async (id: string): Promise<Json | undefined> => {
      const rows = await store.query<{ trace: string; cost_usd: number | string | null; output_tokens: number | string | null }>(
        'SELECT trace, cost_usd, output_tokens FROM llm_traces WHERE project_id = ? AND id = ?', ['p1', id]);
      return rows[0] ? { ...JSON.parse(rows[0].trace) as Json, columns: { cost_usd: rows[0].cost_usd === null ? null : Number(rows[0].cost_usd), output_tokens: Number(rows[0].output_tokens) } } : undefined;
    };
    const monthCost = async () => Number((await store.query<{ c: number | string }>('SELECT SUM(cost_usd) AS c FROM llm_usage WHERE project_id = ?', ['p1']))[0]?.c ?? 0);
    const monthItems = async () => Number((await store.query<{ n: number | string }>('SELECT SUM(items) AS n FROM llm_usage WHERE project_id = ?', ['p1']))[0]?.n ?? 0);
    return { a: processOn(store), b: processOn(other), store, trace, monthCost, monthItems };
  }

  test('a generation never ended is stored after its idle bound, incomplete, with its output and usage; not before', async () => {
    const s = await setup();
    const id = randomUUID();
    await s.a.send([create(id)]);
    assert.is(await s.trace(id), undefined, 'without an end the batch stores nothing');
    const early = await s.a.sweep(Date.now() - 60_000);
    assert.is(early.stored.length, 0, 'not idle for the bound yet: left waiting');
    const swept = await s.b.sweep();
    assert.is(swept.counts.unendedStored, 1);
    assert.is(swept.counts.unendedIncomplete, 1);
    const t = (await s.trace(id))!;
    assert.is(t.incomplete, 'never_ended');
    assert.equal(t.output, { content: 'draft' });
    assert.equal(t.tokens, { input: 10, output: 2 });
    assert.is(t.latency_ms, null, 'no end, no latency');
    assert.is(s.b.published.length, 1);
    assert.is(s.b.published[0].update, undefined, 'its first publication is not an update');
    assert.is(s.b.published[0].trace.incomplete, 'never_ended');
    assert.is(await s.monthItems(), 1, 'counted in the month once, as any item');
    assert.is((await s.a.sweep()).stored.length, 0, 'taken once: a second sweep (another process) finds nothing');
  });

  test('a tree held for want of an LLM call is kept once the sweep stores its never-ended generation', async () => {
    const s = await setup();
    const step = randomUUID();
    const id = randomUUID();
    await s.a.send([
      event('span-create', 60_000, { id: step, traceId: 'trace-tree', name: 'agent step', startTime: iso(60_000) }),
      create(id, 59_000, { traceId: 'trace-tree', parentObservationId: step }),
    ]);
    const held = async () => (await s.store.query<{ has_llm: number | string; spans: number | string }>(
      'SELECT has_llm, spans FROM llm_span_traces WHERE project_id = ? AND trace_id = ?', ['p1', 'trace-tree']))
      .map((r) => [Number(r.has_llm), Number(r.spans)]);
    assert.equal(await held(), [[0, 2]], 'both nodes held: no LLM call of the trace is stored yet');
    await s.b.sweep();
    assert.is((await s.trace(id))?.incomplete, 'never_ended');
    assert.equal(await held(), [[1, 2]], 'kept with its generation, not left to expire');
  });

  test('an end after the generation was stored replaces it: final output, latency, usage and cost, published once as an update', async () => {
    const s = await setup();
    const id = randomUUID();
    await s.a.send([create(id, 60_000)]);
    await s.a.sweep();
    const before = await s.monthCost();
    const ending = [end(id, 0)];
    const r = await s.b.send(ending);
    assert.is(r.counts.updatesApplied, 1);
    const t = (await s.trace(id))!;
    assert.is(t.incomplete, undefined, 'ended: no longer incomplete');
    assert.equal(t.output, { content: 'final answer' });
    assert.equal(t.tokens, { input: 10, output: 30 });
    assert.is(t.cost_usd, 0.004);
    assert.equal(t.columns, { cost_usd: 0.004, output_tokens: 30 }, 'the columns stats read follow the trace');
    assert.ok((t.latency_ms as number) >= 59_000 && (t.latency_ms as number) < 70_000, String(t.latency_ms));
    assert.ok(before > 0, 'the incomplete trace was priced from its usage');
    assert.ok(Math.abs(await s.monthCost() - 0.004) < 1e-12, 'the month adds the difference: it holds the final cost');
    assert.equal(s.b.published.map((p) => [p.id, p.update, p.trace.output]), [[id, true, { content: 'final answer' }]]);

    // The same batch again (the SDK retries), and its event alone: nothing changes, nothing is published.
    const again = await s.a.send(ending);
    assert.is(again.counts.updatesApplied, 0);
    assert.is(again.updated.length, 0);
    assert.is(s.a.published.length, 1, 'process a published only the incomplete trace');
    assert.is(s.b.published.length, 1);
  });

  test('out of order: an older update never overwrites a newer one, but fills what is still empty', async () => {
    const s = await setup();
    const id = randomUUID();
    await s.a.send([create(id, 60_000)]);
    await s.a.sweep();
    await s.b.send([end(id, 1_000, { output: { content: 'newest' } })]);
    const older = await s.a.send([event('generation-update', 30_000, { id, output: { content: 'older' }, level: 'ERROR', statusMessage: 'timeout' })]);
    const t = (await s.trace(id))!;
    assert.equal(t.output, { content: 'newest' });
    assert.is(t.status, 'error', 'the older update set a level no newer event set');
    assert.is(t.error, 'timeout');
    assert.is(older.counts.updatesApplied, 1);
  });

  test('an updated output is redacted by the project\'s rules, as an ingest is', async () => {
    const s = await setup();
    const id = randomUUID();
    await s.a.send([create(id, 60_000)]);
    await s.a.sweep();
    await s.b.send([end(id, 0, { output: { content: 'write to ada@example.com' }, metadata: { phone_owner: 'ada@example.com' } })]);
    const rows = await s.store.query<{ trace: string }>('SELECT trace FROM llm_traces WHERE id = ?', [id]);
    assert.not.ok(rows[0].trace.includes('ada@example.com'), rows[0].trace);
    assert.match(JSON.stringify((await s.trace(id))!.output), /write to/);
    assert.not.ok(JSON.stringify(s.b.published).includes('ada@example.com'), 'nor what is published');
  });

  test('a generation ended in the usual way and updated later (level, output) is replaced too; an update of a sampled-out or unknown one stores nothing', async () => {
    const s = await setup();
    const id = randomUUID();
    await s.a.send([create(id, 60_000), end(id, 50_000)]);
    assert.is((await s.trace(id))!.incomplete, undefined);
    const r = await s.b.send([event('generation-update', 0, { id, level: 'ERROR', statusMessage: 'flagged later' })]);
    assert.is(r.counts.updatesApplied, 1);
    assert.is((await s.trace(id))!.status, 'error');
    const stray = await s.b.send([event('generation-update', 0, { id: randomUUID(), output: 'x' })]);
    assert.is(stray.updated.length + stray.stored.length, 0, 'an update of nothing handed on waits in the state');
  });

  test('two processes: the sweep took a generation, its end merged in the other process before the row was stored; the end is not lost', async () => {
    const s = await setup();
    const id = randomUUID();
    await s.a.send([create(id, 60_000)]);
    const ctx = ctxOf();
    // Process a takes it (state committed, row not stored yet)…
    const taken = await withLangfuseState(s.store, 'p1', (state) => takeUnended(state, Date.now() + 1_000, 10));
    assert.is(taken.items.length, 1);
    // …process b merges its end meanwhile and finds no row to replace…
    const b = await s.b.send([end(id, 0)]);
    assert.is(b.counts.updatesUnstored, 1);
    // …then a stores and syncs: it sees the newer revision and stores the end.
    const { result } = await acceptItems(s.a.deps, ctx, taken.items, undefined, taken.incomplete);
    await syncStoredTraces(s.a.deps, ctx, taken.sources, result);
    const t = (await s.trace(id))!;
    assert.equal(t.output, { content: 'final answer' });
    assert.is(t.incomplete, undefined);
    assert.equal(result.stored.map((x) => JSON.parse(x.json!).output), [{ content: 'final answer' }], 'published once, final');
    assert.is(result.updated.length, 0);
  });

  test('a replacement built from an older revision is refused over a newer one', async () => {
    const s = await setup();
    const id = randomUUID();
    await s.a.send([create(id, 60_000), end(id, 50_000)]);
    await s.a.send([event('generation-update', 40_000, { id, output: 'second' })]);
    await s.a.send([event('generation-update', 30_000, { id, output: 'third' })]);
    const row = await s.store.query<{ revision: number | string }>('SELECT revision FROM llm_traces WHERE id = ?', [id]);
    const revision = Number(row[0].revision);
    const ctx = ctxOf();
    const prepared = await s.a.deps.preparer.prepare(project, { id, created_at: Date.now(), model: 'gpt-4o-mini', output: 'stale' }, false, []);
    assert.ok('row' in prepared);
    assert.equal(await s.b.deps.replacer.replace(ctx.project, prepared, revision - 1), { outcome: 'stale' });
    assert.is((await s.trace(id))!.output, 'third');
  });

  return test;
}

for (const kind of await backendKinds('llm_langfuse_upserts')) define(kind).run();
