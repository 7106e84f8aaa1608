import type { EvalResult, EvalResultsQuery, EvalScoreScope, EvalScoreSource, EvalScoreSummary } from '@vigil/plugin-sdk';

const NO_SCORES: EvalScoreSummary = { avg_score: null, samples: 0, failed: 0, skipped: 0, cost: { tokens_in: 0, tokens_out: 0, usd: 0 }, by_definition: [] };

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

  /** `summary` of each version of one template: one read when the source can, else one per version. */
  async summaryByVersion(scope: EvalScoreScope & { template: string; versions: readonly number[] }): Promise<Map<number, EvalScoreSummary>> {
    if (this.source?.summaryByVersion) return this.source.summaryByVersion(scope);
    const list = await Promise.all(scope.versions.map((version) => this.summary({ ...scope, version })));
    return new Map(scope.versions.map((v, i) => [v, list[i]]));
  }

  /** The evals' cost (USD) of each project's traces in [from, to): one read when the source can, else one per project. */
  async costByProject(projectIds: readonly string[], from: number, to: number): Promise<Map<string, number>> {
    if (!projectIds.length) return new Map();
    if (this.source?.costByProject) return this.source.costByProject(projectIds, from, to);
    const list = await Promise.all(projectIds.map((project_id) => this.summary({ project_id, from, to })));
    return new Map(projectIds.map((id, i) => [id, list[i].cost.usd]));
  }

  /** `summary` of each group of traces by id; groups have no scores when the source cannot say (or is off). */
  async summaryByTraces(projectId: string, groups: ReadonlyMap<string, readonly string[]>): Promise<Map<string, EvalScoreSummary>> {
    if (this.source?.summaryByTraces) return this.source.summaryByTraces(projectId, groups);
    return new Map([...groups.keys()].map((k) => [k, NO_SCORES]));
  }

  series(scope: EvalScoreScope & { from: number; to: number }, stepMs: number): Promise<Map<number, number>> {
    return this.source ? this.source.series(scope, stepMs) : Promise.resolve(new Map());
  }
}
