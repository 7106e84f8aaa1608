// Traces without output in the evaluators' store, both backends: the definitions' `on_missing_output` column (a
// definition made before it skips, the default; `score` and `skip` kept through the API's and the config file's
// writes), a failed call skipped rather than scored, and skipped results left out of averages, series and the
// per-definition figures, counted apart from failures.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PersistedTrace, Store } from '@vigil/plugin-sdk';
import { DefinitionStore } from '../../../../plugins/evaluators/definitions.js';
import { evaluate, type EvaluateDeps } from '../../../../plugins/evaluators/evaluate.js';
import { evaluatorsMigrations } from '../../../../plugins/evaluators/migrations.js';
import { ResultStore } from '../../../../plugins/evaluators/results-store.js';
import { sampleTrace } from '../../../../plugins/evaluators/sample-trace.js';
import type { EvalDefinition, EvalOutcome } from '../../../../plugins/evaluators/types.js';
import { backendKinds, type BackendKind } from '../../runtime/store/backend-kinds.js';

const T0 = Date.UTC(2026, 10, 1);
const fn = { name: 'Length', type: 'custom_function' as const, settings: { source: 'export default () => 1' } };

/** The sample trace as a failed call: status error, the output given as `output`. */
function failedCall(output: unknown): PersistedTrace {
  const t = sampleTrace('p1');
  return { ...t, status: 'error', trace: { ...t.trace, status: 'error', error: '429 Rate limit reached', output } };
}

function define(kind: BackendKind) {
  const test = suite(`traces without output (${kind.name})`);
  test.after(() => kind.cleanup());

  async function open(): Promise<Store> {
    const store = (await kind.open(await kind.fresh())).forPlugin('evaluators');
    await store.migrate(evaluatorsMigrations);
    return store;
  }

  test('migration: a definition made before the column skips; afterwards the API and the config file set either', async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('evaluators');
    await store.migrate(evaluatorsMigrations.slice(0, 3));
    await store.run(`INSERT INTO evaluators_definitions (project_id, id, name, type, sample_rate, template, version_min, version_max, settings, source, created_at, updated_at)
      VALUES ('p1', 'old', 'Old', 'custom_function', 1, NULL, NULL, NULL, ?, 'store', ?, ?)`, [JSON.stringify(fn.settings), T0, T0]);
    await store.migrate(evaluatorsMigrations);
    const defs = new DefinitionStore(store, () => T0 + 1);
    assert.is((await defs.mustGet('p1', 'old')).on_missing_output, 'skip');
    assert.is((await defs.create('p1', { ...fn, id: 'made' })).on_missing_output, 'skip', 'absent from the input: skip');
    assert.is((await defs.create('p1', { ...fn, id: 'all', on_missing_output: 'score' })).on_missing_output, 'score');
    assert.is((await defs.replace('p1', 'all', { ...fn, on_missing_output: 'skip' })).on_missing_output, 'skip');
    await defs.syncConfig([{ ...fn, id: 'declared', projectId: 'p1', on_missing_output: 'score' }]);
    assert.is((await defs.mustGet('p1', 'declared')).on_missing_output, 'score');
    await defs.syncConfig([{ ...fn, id: 'declared', projectId: 'p1' }]);
    assert.is((await defs.mustGet('p1', 'declared')).on_missing_output, 'skip', 'dropped from the file: back to the default');
  });

  test('skipped results are left out of averages and series, and counted apart from failures', async () => {
    const store = await open();
    const results = new ResultStore(store);
    // A result is kept only while its definition exists.
    for (const id of ['len', 'scores-all']) await new DefinitionStore(store).create('p1', { ...fn, id });
    const write = (trace_id: string, outcome: Partial<EvalOutcome>, definition_id = 'len') => results.write({
      project_id: 'p1', definition_id, trace_id, trace_created_at: T0 + 1000, template: 'reply', version: 1, score: null, status: 'ok', reason: null,
      method: 'custom_function', model: null, tokens_in: 0, tokens_out: 0, usd: null, latency_ms: 1, created_at: T0 + 2000, ...outcome,
    });
    await write('a', { score: 1 });
    await write('b', { score: 0.5 });
    await write('c', { status: 'skipped', reason: 'no output' });
    await write('d', { status: 'skipped', reason: 'no output' });
    await write('e', { status: 'failed', reason: 'timeout' });
    await write('c', { score: 0 }, 'scores-all');

    const summary = await results.summary({ project_id: 'p1', template: 'reply' });
    const len = summary.by_definition.find((d) => d.eval_definition_id === 'len')!;
    assert.equal([len.avg_score, len.samples, len.failed, len.skipped], [0.75, 2, 1, 2]);
    assert.equal([summary.samples, summary.failed, summary.skipped], [3, 1, 2]);
    assert.is(summary.avg_score, 0.5, 'the mean of 1, 0.5 and 0: the skipped traces add no zero');
    const byVersion = (await results.summaryByVersion({ project_id: 'p1', template: 'reply', versions: [1] })).get(1)!;
    assert.equal([byVersion.samples, byVersion.skipped, byVersion.avg_score], [3, 2, 0.5]);
    const series = await results.series({ project_id: 'p1', eval_definition_id: 'len', from: T0, to: T0 + 60_000 }, 60_000);
    assert.equal([...series], [[0, 0.75]]);
    const stats = (await results.perDefinition('p1')).get('len')!;
    assert.equal([stats.results, stats.failed, stats.skipped, stats.avg_score], [5, 1, 2, 0.75]);
    assert.equal((await results.list('p1', { status: 'skipped', limit: 50, offset: 0 })).map((r) => [r.trace_id, r.score, r.reason]).sort(),
      [['c', null, 'no output'], ['d', null, 'no output']]);
  });

  return test;
}

const noDeps = {} as EvaluateDeps;
const definition = (on_missing_output: EvalDefinition['on_missing_output']): EvalDefinition => ({
  ...fn, id: 'len', project_id: 'p1', sample_rate: 1, template: null, versions: null, on_missing_output, source: 'store', created_at: T0, updated_at: T0,
});

const outcome = suite('on_missing_output: skip');

outcome('a failed call without output is skipped, without touching an evaluator, whatever the shape of "nothing"', async () => {
  for (const output of [null, undefined, '', '  \n', { role: 'assistant', content: '' }, { role: 'assistant', content: null }, []]) {
    const result = await evaluate(noDeps, definition('skip'), failedCall(output));
    assert.equal(result, {
      status: 'skipped', score: null, reason: 'no output', method: 'custom_function', model: null, tokens_in: 0, tokens_out: 0, usd: 0,
      details: { kind: 'no_output', trace_status: 'error' },
    }, JSON.stringify(output));
  }
  const similarity = await evaluate(noDeps, { ...definition('skip'), type: 'semantic_similarity', settings: {} }, failedCall(null));
  assert.is(similarity.method, 'none', 'no embedder ran');
});

outcome('an output with text, or a tool call, is evaluated; `score` evaluates a trace without output too', async () => {
  const ran: string[] = [];
  const deps = { sandboxes: { loadFunction: async () => { ran.push('sandbox'); return { call: async () => ({ ok: true, value: 1 }) }; } } } as unknown as EvaluateDeps;
  const call = { role: 'assistant', content: null, tool_calls: [{ function: { name: 'refund', arguments: '{}' } }] };
  for (const [on, output] of [['skip', { role: 'assistant', content: 'Paris.' }], ['skip', call], ['score', null]] as const) {
    ran.length = 0;
    const result = await evaluate(deps, definition(on), failedCall(output));
    assert.equal([result.status, result.score], ['ok', 1], `${on} ${JSON.stringify(output)}`);
    assert.equal(ran, ['sandbox'], `${on} ${JSON.stringify(output)}: the function ran`);
  }
});

for (const kind of await backendKinds('evaluators_missing_output')) define(kind).run();
outcome.run();
