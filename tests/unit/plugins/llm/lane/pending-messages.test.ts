// Messages from OTLP logs meeting their span's trace, in either order, on both backends: the lane's tasks for
// stored items and for messages over one real store (two handles on one database stand for two processes).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PersistedTrace, Store } from '@vigil/plugin-sdk';
import { effectiveSettings } from '../../../../../plugins/llm/effective-settings.js';
import { laneDeps } from '../../../../../plugins/llm/lane/lane-deps.js';
import { runLaneTask } from '../../../../../plugins/llm/lane/lane-tasks.js';
import type { LaneContext, LaneResult, StoredTrace } from '../../../../../plugins/llm/lane/lane-types.js';
import { llmMigrations } from '../../../../../plugins/llm/migrations.js';
import type { SpanMessages } from '../../../../../plugins/llm/otlp/genai-log-events.js';
import { PENDING_TTL_MS } from '../../../../../plugins/llm/pending-messages.js';
import type { QueuedItem } from '../../../../../plugins/llm/queued-item.js';
import type { LlmProject } from '../../../../../plugins/llm/types.js';
import { backendKinds, type BackendKind } from '../../../runtime/store/backend-kinds.js';

const settings = effectiveSettings({}, {}, 5e6);
const projects: Record<string, LlmProject> = {
  p1: { id: 'p1', name: 'alpha', source: 'store', settings },
  p2: { id: 'p2', name: 'beta', source: 'store', settings },
};
let n = 0;
const newId = () => `00000000-0000-5000-8000-${String(++n).padStart(12, '0')}`;
const item = (id: string, o: Partial<QueuedItem> = {}): QueuedItem => ({ id, created_at: 1_700_000_000_000, model: 'gpt-4o-mini', ...o });
const INPUT = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Mail ada@example.com the capital of France' }];
const OUTPUT = [{ role: 'assistant', content: 'Paris.', finish_reason: 'stop' }];
const spanMessages = (id: string, o: Partial<SpanMessages> = { input: INPUT, output: OUTPUT }): SpanMessages => ({ id, trace_id: 't', span_id: 's', ...o });
const ctxOf = (project: string): LaneContext => ({ project: projects[project], prices: {}, now: Date.now(), withTraces: true });

/** What the main thread publishes of a result: the stored traces, then the updates, with their content. */
const publishedOf = (r: LaneResult): PersistedTrace[] => [...r.stored, ...r.updated.map((t) => ({ ...t, update: true as const }))]
  .map((t: StoredTrace & { update?: true }) => {
    const { json, ...ref } = t;
    return { ...ref, trace: JSON.parse(json!) as Record<string, unknown> };
  });

function define(kind: BackendKind) {
  const test = suite(`messages from OTLP logs (${kind.name})`);
  test.after(() => kind.cleanup());

  /** A "process": its own store handle and lane deps. */
  function processOn(store: Store) {
    const deps = laneDeps(store);
    const published: PersistedTrace[] = [];
    const counts = { applied: 0, waiting: 0, dead: 0 };
    return {
      published,
      counts,
      pending: deps.pending,
      persist: async (project: string, items: QueuedItem[]) => {
        const r = await runLaneTask(deps, { kind: 'queued-items', ctx: ctxOf(project), items });
        published.push(...publishedOf(r));
        return r;
      },
      messages: async (project: string, spans: SpanMessages[]) => {
        const r = await runLaneTask(deps, { kind: 'queued-messages', ctx: ctxOf(project), spans });
        counts.applied += r.counts.messagesApplied;
        counts.waiting += r.counts.messagesWaiting;
        counts.dead += r.counts.messagesDead;
        published.push(...publishedOf(r));
        return r;
      },
    };
  }

  async function setup() {
    const url = await kind.fresh();
    const store = (await kind.open(url)).forPlugin('llm');
    await store.migrate(llmMigrations);
    const other = (await kind.open(url)).forPlugin('llm');
    const trace = async (project: string, id: string) => {
      const rows = await store.query<{ trace: string }>('SELECT trace FROM llm_traces WHERE project_id = ? AND id = ?', [project, id]);
      return rows[0] ? JSON.parse(rows[0].trace) as Record<string, unknown> : undefined;
    };
    const pendingRows = () => store.query<{ project_id: string; item_id: string; input: string | null }>('SELECT project_id, item_id, input FROM llm_pending_messages ORDER BY item_id');
    return { a: processOn(store), b: processOn(other), store, trace, pendingRows };
  }

  test('logs before the span: the messages wait redacted, then the span\'s persist stores and publishes them', async () => {
    const s = await setup();
    const id = newId();
    await s.a.messages('p1', [spanMessages(id)]);
    assert.equal(s.a.counts, { applied: 0, waiting: 1, dead: 0 });
    const waiting = await s.pendingRows();
    assert.is(waiting.length, 1);
    assert.not.ok(waiting[0].input!.includes('ada@example.com'), 'nothing unredacted in the pending table');
    await s.b.persist('p1', [item(id)]);
    const t = (await s.trace('p1', id))!;
    assert.match(JSON.stringify(t.input), /capital of France/);
    assert.not.ok(JSON.stringify(t.input).includes('ada@example.com'));
    assert.equal(t.output, OUTPUT);
    assert.equal(s.b.published[0].trace.output, OUTPUT, 'what is published (eval hooks) has the messages');
    assert.is((await s.pendingRows()).length, 0);
  });

  test('span before logs: the stored trace gets the messages; a side the span carried is never overwritten', async () => {
    const s = await setup();
    const [plain, carried] = [newId(), newId()];
    await s.a.persist('p1', [item(plain), item(carried, { input: [{ role: 'user', content: 'from the span' }] })]);
    await s.b.messages('p1', [spanMessages(plain), spanMessages(carried)]);
    assert.equal(s.b.counts, { applied: 2, waiting: 0, dead: 0 });
    const t = (await s.trace('p1', plain))!;
    assert.is((t.input as unknown[]).length, 2);
    assert.equal(t.output, OUTPUT);
    const c = (await s.trace('p1', carried))!;
    assert.equal(c.input, [{ role: 'user', content: 'from the span' }]);
    assert.equal(c.output, OUTPUT);
    assert.is((await s.pendingRows()).length, 0);
  });

  test('late messages: an OTLP span stored without them is flagged awaiting; they publish and hook it again as an update, once', async () => {
    const s = await setup();
    const otel = { metadata: { otel: { trace_id: 't', span_id: 's' } } };
    const [late, early, native] = [newId(), newId(), newId()];
    await s.a.messages('p1', [spanMessages(early)]);
    await s.a.persist('p1', [item(late, otel), item(early, otel), item(native)]);
    const first = new Map(s.a.published.map((t) => [t.id, t]));
    assert.equal([first.get(late)!.awaiting_messages, first.get(early)!.awaiting_messages, first.get(native)!.awaiting_messages], [true, undefined, undefined]);
    assert.equal(first.get(early)!.trace.output, OUTPUT);
    assert.is(s.a.published.length, 3, 'each stored trace is handed on once (publish and the eval hooks get the same references)');

    await s.b.messages('p1', [spanMessages(late)]);
    await s.b.messages('p1', [spanMessages(late)]);
    assert.is(s.b.published.length, 1, 'a retried export changes nothing and publishes nothing');
    const [update] = s.b.published;
    assert.equal([update.id, update.update, update.awaiting_messages, update.trace.output], [late, true, undefined, OUTPUT]);
    assert.equal([update.created_at, update.model, update.project_id], [first.get(late)!.created_at, 'gpt-4o-mini', 'p1']);
    assert.equal(update.trace.input, first.get(early)!.trace.input, 'the update carries the complete trace');

    // A batch sent again after a crash between its insert and its look for messages: the trace it finds changed is an update too.
    const id = newId();
    await s.a.persist('p1', [item(id, otel)]);
    await s.a.pending.stash('p1', [{ id, parts: { output: OUTPUT } }]);
    s.a.published.length = 0;
    await s.a.persist('p1', [item(id, otel)]);
    assert.equal(s.a.published.map((t) => [t.id, t.update, t.trace.output]), [[id, true, OUTPUT]]);
  });

  test('input and output in separate exports, and retries of everything: each side stored once', async () => {
    const s = await setup();
    const id = newId();
    const input = [spanMessages(id, { input: INPUT })];
    const output = [spanMessages(id, { output: OUTPUT })];
    await s.a.messages('p1', input);
    await s.a.messages('p1', input);
    await s.b.persist('p1', [item(id)]);
    await s.b.persist('p1', [item(id)]);
    await s.a.messages('p1', output);
    await s.a.messages('p1', output);
    await s.a.messages('p1', input);
    const t = (await s.trace('p1', id))!;
    assert.is((t.input as unknown[]).length, 2);
    assert.equal(t.output, OUTPUT);
    assert.is((await s.pendingRows()).length, 0);
    assert.is((await s.store.query('SELECT id FROM llm_traces')).length, 1);
  });

  test('a batch sent again after its rows were stored still takes the messages that waited', async () => {
    const s = await setup();
    const id = newId();
    await s.a.persist('p1', [item(id)]);
    // As if the messages had been kept between the span's insert and its look for them (a crash there).
    await s.a.pending.stash('p1', [{ id, parts: { output: OUTPUT } }]);
    await s.a.persist('p1', [item(id)]);
    assert.equal((await s.trace('p1', id))!.output, OUTPUT);
  });

  test('isolation: messages sent with another project\'s key never attach to this project\'s trace', async () => {
    const s = await setup();
    const id = newId();
    await s.a.persist('p1', [item(id)]);
    await s.a.messages('p2', [spanMessages(id)]);
    const t = (await s.trace('p1', id))!;
    assert.equal([t.input, t.output], [null, null]);
    assert.equal((await s.pendingRows()).map((r) => r.project_id), ['p2'], 'they wait for p2\'s own span');
    // (ingest gives each its own created_at; the key is (id, created_at), as in the isolation test of the routes)
    await s.b.persist('p2', [item(id, { created_at: 1_700_000_000_001 })]);
    assert.equal((await s.trace('p2', id))!.output, OUTPUT);
    assert.equal((await s.trace('p1', id))!.output, null);
  });

  test('two processes, spans and logs racing: every trace ends with its messages, once', async () => {
    const s = await setup();
    const ids = Array.from({ length: 30 }, newId);
    await Promise.all(ids.flatMap((id, i) => [
      (i % 2 ? s.a : s.b).persist('p1', [item(id)]),
      (i % 2 ? s.b : s.a).messages('p1', [spanMessages(id)]),
    ]));
    for (const id of ids) {
      const t = (await s.trace('p1', id))!;
      assert.equal(t.output, OUTPUT, id);
      assert.is((t.input as unknown[]).length, 2);
    }
    assert.is((await s.pendingRows()).length, 0);
  });

  test('retention deletes messages whose span never came, after a day', async () => {
    const s = await setup();
    const id = newId();
    await s.a.pending.stash('p1', [{ id, parts: { input: INPUT } }], Date.now() - PENDING_TTL_MS - 1);
    await s.a.pending.stash('p1', [{ id: newId(), parts: { input: INPUT } }]);
    assert.is(await s.a.pending.deleteStale(), 1);
    assert.is((await s.pendingRows()).length, 1);
  });

  return test;
}

for (const kind of await backendKinds('llm_pending_messages')) define(kind).run();
