import type { EvalResult, EvalResultsQuery, EvalScoreScope, EvalScoreSource, EvalScoreSummary } from '@vigil/plugin-sdk';

const NO_SCORES: EvalScoreSummary = { avg_score: null, samples: 0, failed: 0, cost: { tokens_in: 0, tokens_out: 0, usd: 0 }, by_definition: [] };

/**
 * Where the public API gets eval results and scores: the source the evaluators plugin registers through the `llm`
 * service (`provideEvalScores`). Without one (the plugin is off) lists are empty and scores null: the shapes stay.
 */
export class EvalScores {
  private source: EvalScoreSource | undefined;

  provide(source: EvalScoreSource): () => void {
    this.source = source;
    return () => { if (this.source === source) this.source = undefined; };
  }

  results(projectId: string, query: EvalResultsQuery): Promise<EvalResult[]> {
    return this.source ? this.source.results(projectId, query) : Promise.resolve([]);
  }

  summary(scope: EvalScoreScope): Promise<EvalScoreSummary> {
    return this.source ? this.source.summary(scope) : Promise.resolve(NO_SCORES);
  }

  series(scope: EvalScoreScope & { from: number; to: number }, stepMs: number): Promise<Map<number, number>> {
    return this.source ? this.source.series(scope, stepMs) : Promise.resolve(new Map());
  }
}
