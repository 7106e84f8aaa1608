// Billing asks for the evals' cost of a page of projects at once: from the source's grouped read when it has one
// (the evaluators plugin), else from its summary per project (a third-party source), and nothing while none is there.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EvalScoreScope, EvalScoreSource, EvalScoreSummary } from '@vigil/plugin-sdk';
import { EvalScores } from '../../../../plugins/llm/eval-scores.js';

const summaryOf = (usd: number): EvalScoreSummary => ({ avg_score: null, samples: 0, failed: 0, skipped: 0, cost: { tokens_in: 0, tokens_out: 0, usd }, by_definition: [] });

function source(grouped: boolean, asked: string[]): EvalScoreSource {
  return {
    results: async () => [],
    summary: async (scope: EvalScoreScope) => { asked.push(`summary ${scope.project_id} ${scope.from}-${scope.to}`); return summaryOf(scope.project_id === 'a' ? 0.5 : 0.25); },
    series: async () => new Map(),
    ...(grouped ? { costByProject: async (ids: readonly string[], from: number, to: number) => { asked.push(`grouped ${ids.join(',')} ${from}-${to}`); return new Map([['a', 1.5]]); } } : {}),
  };
}

test('one grouped read when the source has it', async () => {
  const scores = new EvalScores();
  const asked: string[] = [];
  scores.provide(source(true, asked));
  assert.equal([...await scores.costByProject(['a', 'b'], 10, 20)], [['a', 1.5]]);
  assert.equal(asked, ['grouped a,b 10-20']);
  assert.equal([...await scores.costByProject([], 10, 20)], []);
  assert.is(asked.length, 1, 'no read for no projects');
});

test('a summary per project from a source without it; nothing without a source', async () => {
  const scores = new EvalScores();
  const asked: string[] = [];
  const off = scores.provide(source(false, asked));
  assert.equal([...await scores.costByProject(['a', 'b'], 10, 20)], [['a', 0.5], ['b', 0.25]]);
  assert.equal(asked, ['summary a 10-20', 'summary b 10-20']);
  off();
  assert.equal([...await scores.costByProject(['a'], 10, 20)], [['a', 0]]);
});

test.run();
