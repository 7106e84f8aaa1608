// Scores sent with traces in the evaluators' store, both backends: kept once per id (a resent batch adds nothing),
// listed per project with their filters, and deleted by the llm plugin's retention sweep with the eval results:
// past each project's cutoff, and all of a project that is gone, except what came after the sweep's list was read.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ReceivedScore, Store } from '@vigil/plugin-sdk';
import { evaluatorsMigrations } from '../../../../plugins/evaluators/migrations.js';
import { ReceivedScores } from '../../../../plugins/evaluators/received-scores.js';
import { ResultStore } from '../../../../plugins/evaluators/results-store.js';
import { deleteExpiredEvalData } from '../../../../plugins/evaluators/retention.js';
import { backendKinds, type BackendKind } from '../../runtime/store/backend-kinds.js';
import { DefinitionStore } from '../../../../plugins/evaluators/definitions.js';

const T0 = Date.UTC(2026, 10, 1);
const score = (over: Partial<ReceivedScore> & { id: string }): ReceivedScore => ({
  project_id: 'p1', source: 'langfuse', name: 'accuracy', value: 7, data_type: 'NUMERIC', trace_id: 'lf-trace', timestamp: new Date(T0).toISOString(), ...over,
});

function define(kind: BackendKind) {
  const test = suite(`received scores (${kind.name})`);
  test.after(() => kind.cleanup());

  async function open(): Promise<Store> {
    const store = (await kind.open(await kind.fresh())).forPlugin('evaluators');
    await store.migrate(evaluatorsMigrations);
    return store;
  }

  test('kept once per id, values by type, listed newest first with filters, per project', async () => {
    const store = await open();
    const scores = new ReceivedScores(store, () => T0 + 5000);
    const batch = [
      score({ id: 'a', item_id: 'item-1', observation_id: 'obs-1', comment: 'nul\u0000byte' }),
      score({ id: 'b', name: 'tone', value: 'friendly', data_type: 'CATEGORICAL', timestamp: new Date(T0 + 1000).toISOString() }),
      score({ id: 'c', name: 'ok', value: true, data_type: 'BOOLEAN', timestamp: 'not a time' }),
      score({ id: 'd', project_id: 'p2' }),
    ];
    assert.is(await scores.keep(batch), 4);
    assert.is(await scores.keep(batch), 0, 'a resent batch adds nothing');
    const page = { limit: 50, offset: 0 };
    const all = await scores.list('p1', page);
    assert.equal(all.map((s) => [s.id, s.value, s.trace_id]), [['c', 1, null], ['b', 'friendly', null], ['a', 7, 'item-1']]);
    assert.is(all[0].created_at, new Date(T0 + 5000).toISOString(), 'an unreadable timestamp is the receipt time');
    assert.is(all[2].comment, 'nul\uFFFDbyte');
    assert.equal((await scores.list('p1', { ...page, trace_id: 'item-1' })).map((s) => s.id), ['a']);
    assert.equal((await scores.list('p1', { ...page, trace_id: 'item-1', or_sender_trace_id: 'lf-trace' })).map((s) => s.id), ['c', 'b', 'a']);
    assert.equal((await scores.list('p1', { ...page, name: 'tone', sender_trace_id: 'lf-trace' })).map((s) => s.id), ['b']);
    assert.equal((await scores.list('p1', { ...page, since: T0 + 1000 })).map((s) => s.id), ['c', 'b']);
    assert.equal((await scores.list('p1', { limit: 1, offset: 1 })).map((s) => s.id), ['b']);
    assert.equal((await scores.list('p2', page)).map((s) => s.id), ['d']);
  });

  test('ids are per project: the same id from two projects is two scores, each listed by its own project only', async () => {
    const store = await open();
    const scores = new ReceivedScores(store, () => T0 + 5000);
    assert.is(await scores.keep([score({ id: 'shared', value: 1 })]), 1);
    assert.is(await scores.keep([score({ id: 'shared', project_id: 'p2', value: 2, name: 'other-name' })]), 1, 'another project\'s score with the same id is kept');
    const page = { limit: 50, offset: 0 };
    assert.equal((await scores.list('p1', page)).map((s) => [s.id, s.value, s.name]), [['shared', 1, 'accuracy']]);
    assert.equal((await scores.list('p2', page)).map((s) => [s.id, s.value, s.name]), [['shared', 2, 'other-name']]);
  });

  test('a score sent again under its id replaces the earlier one in its project (Langfuse upserts by id); an identical resend changes nothing', async () => {
    const store = await open();
    let now = T0 + 5000;
    const scores = new ReceivedScores(store, () => now);
    await scores.keep([score({ id: 's', value: 3, comment: 'first' }), score({ id: 's', project_id: 'p2', value: 9 })]);
    now += 1000;
    assert.is(await scores.keep([score({ id: 's', value: 3, comment: 'first' })]), 0, 'identical: not counted, not touched');
    assert.is((await scores.list('p1', { limit: 50, offset: 0 }))[0].received_at, new Date(T0 + 5000).toISOString());
    assert.is(await scores.keep([score({ id: 's', value: 'good', data_type: 'CATEGORICAL', comment: 'revised', timestamp: new Date(T0 + 2000).toISOString() })]), 1);
    const [updated, ...rest] = await scores.list('p1', { limit: 50, offset: 0 });
    assert.equal(rest, [], 'still one score');
    assert.equal([updated.value, updated.data_type, updated.comment, updated.created_at, updated.received_at],
      ['good', 'CATEGORICAL', 'revised', new Date(T0 + 2000).toISOString(), new Date(T0 + 6000).toISOString()]);
    assert.equal((await scores.list('p2', { limit: 50, offset: 0 })).map((s) => s.value), [9], 'the other project\'s score is untouched');
  });

  test('migration: scores kept under the global id survive, and afterwards the same id is kept per project', async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('evaluators');
    await store.migrate(evaluatorsMigrations.slice(0, 2));
    const v2 = `INSERT INTO evaluators_scores (id, project_id, trace_id, name, source, data_type, value_number, value_text, comment, sender_trace_id,
      observation_id, created_at, received_at) VALUES (?, ?, NULL, ?, 'langfuse', ?, ?, ?, ?, 'lf-trace', NULL, ?, ?)`;
    await store.run(v2, ['old-a', 'p1', 'accuracy', 'NUMERIC', 7, null, 'kept', T0, T0]);
    await store.run(v2, ['old-b', 'p2', 'tone', 'CATEGORICAL', null, 'x', null, T0, T0]);
    await store.migrate(evaluatorsMigrations);
    const scores = new ReceivedScores(store, () => T0 + 1);
    const page = { limit: 50, offset: 0 };
    assert.equal((await scores.list('p1', page)).map((s) => [s.id, s.value, s.comment]), [['old-a', 7, 'kept']]);
    assert.equal((await scores.list('p2', page)).map((s) => [s.id, s.value]), [['old-b', 'x']]);
    assert.is(await scores.keep([score({ id: 'old-a', project_id: 'p2', value: 5 })]), 1);
    assert.equal((await scores.list('p2', page)).map((s) => [s.id, s.value]).sort(), [['old-a', 5], ['old-b', 'x']]);
    assert.equal((await scores.list('p1', page)).map((s) => [s.id, s.value]), [['old-a', 7]]);
  });

  test('retention: past each project\'s cutoff, and a deleted project\'s from before the list, results and scores alike', async () => {
    const store = await open();
    const at = T0 + 10_000;
    const scores = new ReceivedScores(store, () => at - 1);
    await scores.keep([
      score({ id: 'old', timestamp: new Date(T0).toISOString() }),
      score({ id: 'new', timestamp: new Date(T0 + 9000).toISOString() }),
      score({ id: 'gone', project_id: 'deleted' }),
    ]);
    await new ReceivedScores(store, () => at + 1).keep([score({ id: 'fresh-project', project_id: 'created-after-the-list' })]);
    const results = new ResultStore(store);
    // A result is kept only while its definition exists.
    for (const p of ['p1', 'deleted', 'created-after-the-list']) await new DefinitionStore(store).create(p, { id: 'd', name: 'd', type: 'custom_function', settings: { source: 'export default () => 1' } });
    const result = (project_id: string, trace_id: string, trace_created_at: number, created_at: number) => results.write({
      project_id, definition_id: 'd', trace_id, trace_created_at, template: null, version: null, score: 0.5, status: 'ok', reason: null,
      method: 'custom_function', model: null, tokens_in: 0, tokens_out: 0, usd: null, latency_ms: 1, created_at,
    });
    await result('p1', 'expired-trace', T0, at - 1);
    await result('p1', 'kept-trace', T0 + 9000, at - 1);
    await result('deleted', 'x', T0 + 9000, at - 1);
    await result('created-after-the-list', 'y', at + 1, at + 1);

    const deleted = await deleteExpiredEvalData(store, { at, projects: [{ id: 'p1', before: T0 + 5000 }] });
    assert.equal(deleted, { results: 2, scores: 2 });
    const ids = async (table: string) => (await store.query<{ id: string; project_id: string }>(`SELECT ${table === 'scores' ? 'id' : 'trace_id AS id'}, project_id FROM evaluators_${table} ORDER BY 1`)).map((r) => r.id);
    assert.equal(await ids('scores'), ['fresh-project', 'new']);
    assert.equal(await ids('results'), ['kept-trace', 'y']);
    assert.equal(await deleteExpiredEvalData(store, { at: at + 2, projects: [] }), { results: 2, scores: 2 }, 'no projects left: everything before the list goes');
  });

  return test;
}

for (const kind of await backendKinds('evaluators_scores')) define(kind).run();
