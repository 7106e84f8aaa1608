// Messages from OTLP logs meeting their span's trace, in either order, on both backends: the persist stage and the
// messages stage over one real store (two handles on one database stand for two processes).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PersistedTrace, QueuedJob, Store } from '@vigil/plugin-sdk';
import { governJson } from '../../../../policies/govern-json.js';
import { effectiveSettings } from '../../../../plugins/llm/effective-settings.js';
import { EvalHooks } from '../../../../plugins/llm/eval-hooks.js';
import { publishUpdates } from '../../../../plugins/llm/late-messages.js';
import type { PersistPayload, QueuedItem } from '../../../../plugins/llm/ingest-pipeline.js';
import { llmMigrations } from '../../../../plugins/llm/migrations.js';
import type { SpanMessages } from '../../../../plugins/llm/otlp/genai-log-events.js';
import { PENDING_TTL_MS, PendingMessages } from '../../../../plugins/llm/pending-messages.js';
import { MessagesStage, type MessagesPayload } from '../../../../plugins/llm/persist-messages.js';
import { PersistStage } from '../../../../plugins/llm/persist-stage.js';
import { PromptVersions } from '../../../../plugins/llm/prompt-versions.js';
import type { LlmProject } from '../../../../plugins/llm/types.js';
import { backendKinds, recordingLog, type BackendKind } from '../../runtime/store/backend-kinds.js';

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
const traceJob = (project: string, items: QueuedItem[], attempt = 1): QueuedJob<PersistPayload> => ({ id: 1, queue: 'llm.persist', attempt, payload: { project, items } });
const messagesJob = (project: string, spans: SpanMessages[]): QueuedJob<MessagesPayload> => ({ id: 2, queue: 'llm.persist', attempt: 1, payload: { kind: 'messages', project, spans } });

function define(kind: BackendKind) {
  const test = suite(`messages from OTLP logs (${kind.name})`);
  test.after(() => kind.cleanup());

  /** A "process": its own store handle, persist stage and messages stage. */
  function processOn(store: Store) {
    const published: PersistedTrace[] = [];
    const hooked: PersistedTrace[] = [];
    const pending = new PendingMessages(store);
    const counts = { applied: 0, waiting: 0, dead: 0 };
    const hooks = new EvalHooks(recordingLog(), () => {});
    hooks.add((t) => { hooked.push(...t); });
    const publish = (t: PersistedTrace) => { published.push(t); };
    const persist = new PersistStage({
      store, log: recordingLog(), project: async (id) => projects[id], versions: new PromptVersions(store, () => {}), governJson,
      hooks, pending, publish,
      counters: { stored: () => {}, duplicate: () => {}, dead: () => {}, projectGone: () => {} },
    });
    const messages = new MessagesStage({
      log: recordingLog(), project: async (id) => projects[id], governJson, pending, updated: (t) => publishUpdates(t, publish, hooks),
      counters: { applied: (x) => { counts.applied += x; }, waiting: (x) => { counts.waiting += x; }, dead: (x) => { counts.dead += x; } },
    });
    return { persist, messages, pending, published, hooked, counts };
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
    await s.a.messages.run(messagesJob('p1', [spanMessages(id)]));
    assert.equal(s.a.counts, { applied: 0, waiting: 1, dead: 0 });
    const waiting = await s.pendingRows();
    assert.is(waiting.length, 1);
    assert.not.ok(waiting[0].input!.includes('ada@example.com'), 'nothing unredacted in the pending table');
    await s.b.persist.run(traceJob('p1', [item(id)]));
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
    await s.a.persist.run(traceJob('p1', [item(plain), item(carried, { input: [{ role: 'user', content: 'from the span' }] })]));
    await s.b.messages.run(messagesJob('p1', [spanMessages(plain), spanMessages(carried)]));
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
    await s.a.messages.run(messagesJob('p1', [spanMessages(early)]));
    await s.a.persist.run(traceJob('p1', [item(late, otel), item(early, otel), item(native)]));
    const first = new Map(s.a.published.map((t) => [t.id, t]));
    assert.equal([first.get(late)!.awaiting_messages, first.get(early)!.awaiting_messages, first.get(native)!.awaiting_messages], [true, undefined, undefined]);
    assert.equal(first.get(early)!.trace.output, OUTPUT);
    assert.is(s.a.hooked.length, 3);

    await s.b.messages.run(messagesJob('p1', [spanMessages(late)]));
    await s.b.messages.run(messagesJob('p1', [spanMessages(late)]));
    assert.is(s.b.published.length, 1, 'a retried export changes nothing and publishes nothing');
    const [update] = s.b.published;
    assert.equal([update.id, update.update, update.awaiting_messages, update.trace.output], [late, true, undefined, OUTPUT]);
    assert.equal([update.created_at, update.model, update.project_id], [first.get(late)!.created_at, 'gpt-4o-mini', 'p1']);
    assert.equal(s.b.hooked, [update], 'the eval hooks see the complete trace');

    // A persist job retried after a crash between its insert and its look for messages: the trace it finds changed is an update too.
    const id = newId();
    await s.a.persist.run(traceJob('p1', [item(id, otel)]));
    await s.a.pending.stash('p1', [{ id, parts: { output: OUTPUT } }]);
    s.a.published.length = 0;
    await s.a.persist.run(traceJob('p1', [item(id, otel)], 2));
    assert.equal(s.a.published.map((t) => [t.id, t.update, t.trace.output]), [[id, true, OUTPUT]]);
  });

  test('input and output in separate exports, and retries of everything: each side stored once', async () => {
    const s = await setup();
    const id = newId();
    const input = messagesJob('p1', [spanMessages(id, { input: INPUT })]);
    const output = messagesJob('p1', [spanMessages(id, { output: OUTPUT })]);
    await s.a.messages.run(input);
    await s.a.messages.run(input);
    await s.b.persist.run(traceJob('p1', [item(id)]));
    await s.b.persist.run(traceJob('p1', [item(id)], 2));
    await s.a.messages.run(output);
    await s.a.messages.run(output);
    await s.a.messages.run(input);
    const t = (await s.trace('p1', id))!;
    assert.is((t.input as unknown[]).length, 2);
    assert.equal(t.output, OUTPUT);
    assert.is((await s.pendingRows()).length, 0);
    assert.is((await s.store.query('SELECT id FROM llm_traces')).length, 1);
  });

  test('a persist job retried after its rows were stored still takes the messages that waited', async () => {
    const s = await setup();
    const id = newId();
    await s.a.persist.run(traceJob('p1', [item(id)]));
    // As if the messages had been kept between the span's insert and its look for them (a crash there).
    await s.a.pending.stash('p1', [{ id, parts: { output: OUTPUT } }]);
    await s.a.persist.run(traceJob('p1', [item(id)], 2));
    assert.equal((await s.trace('p1', id))!.output, OUTPUT);
  });

  test('isolation: messages sent with another project\'s key never attach to this project\'s trace', async () => {
    const s = await setup();
    const id = newId();
    await s.a.persist.run(traceJob('p1', [item(id)]));
    await s.a.messages.run(messagesJob('p2', [spanMessages(id)]));
    const t = (await s.trace('p1', id))!;
    assert.equal([t.input, t.output], [null, null]);
    assert.equal((await s.pendingRows()).map((r) => r.project_id), ['p2'], 'they wait for p2\'s own span');
    // (ingest gives each its own created_at; the key is (id, created_at), as in the isolation test of the routes)
    await s.b.persist.run(traceJob('p2', [item(id, { created_at: 1_700_000_000_001 })]));
    assert.equal((await s.trace('p2', id))!.output, OUTPUT);
    assert.equal((await s.trace('p1', id))!.output, null);
  });

  test('two processes, spans and logs racing: every trace ends with its messages, once', async () => {
    const s = await setup();
    const ids = Array.from({ length: 30 }, newId);
    await Promise.all(ids.flatMap((id, i) => [
      (i % 2 ? s.a : s.b).persist.run(traceJob('p1', [item(id)])),
      (i % 2 ? s.b : s.a).messages.run(messagesJob('p1', [spanMessages(id)])),
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
