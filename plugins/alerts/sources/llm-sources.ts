import type { AlertReading, AlertScope, AlertSeriesRange, AlertSource, LlmProjectRef, LlmService, TraceWindow } from '@vigil/plugin-sdk';

type Metric = (w: TraceWindow) => AlertReading;

const METRICS: { id: string; summary: string; unit: string; p95?: boolean; reading: Metric }[] = [
  { id: 'llm.error_rate', summary: 'Share of a project\'s calls that failed (0..1)', unit: 'ratio', reading: (w) => ({ value: w.requests ? w.errors / w.requests : null, samples: w.requests }) },
  { id: 'llm.p95_latency_ms', summary: 'P95 latency of a project\'s calls (exact, nearest rank)', unit: 'ms', p95: true, reading: (w) => ({ value: w.p95_latency_ms, samples: w.requests }) },
  { id: 'llm.cost_usd', summary: 'Spend of a project\'s calls in the window; with a budget condition, the month to date against its cap', unit: 'usd', reading: (w) => ({ value: w.cost_usd, samples: w.requests }) },
  { id: 'llm.requests', summary: 'Calls a project made in the window', unit: 'count', reading: (w) => ({ value: w.requests, samples: w.requests }) },
];

/**
 * The LLM sources, built on the `llm` service's reads (no table of the llm plugin is named here). The alerts plugin
 * registers them through the same `registerSource` a third-party plugin uses: the llm plugin starts before alerts
 * (alerts needs its service to serve `GET /api/v1/alert-events`), so it could not register them itself.
 */
export function llmSources(llm: LlmService): AlertSource[] {
  const projectOf = async (scope: AlertScope): Promise<LlmProjectRef> => {
    const project = await llm.project(scope.project ?? '');
    if (!project) throw new Error(`scope.project: there is no LLM project "${scope.project}"`);
    return project;
  };
  const windows = async (range: AlertSeriesRange, scope: AlertScope, p95: boolean) => llm.traceWindows({
    project_id: (await projectOf(scope)).id, to: range.to, stepMs: range.stepMs, count: range.count, p95,
    ...(scope.template !== undefined ? { template: scope.template } : {}),
    ...(scope.version !== undefined ? { version: scope.version } : {}),
    ...(scope.model !== undefined ? { model: scope.model } : {}),
  });
  const traceSources: AlertSource[] = METRICS.map((m) => ({
    id: m.id, summary: m.summary, unit: m.unit, scopes: ['project', 'template', 'version', 'model'], requiredScopes: ['project'],
    read: async (window, scope) => m.reading((await windows({ to: window.to, stepMs: window.to - window.from, count: 1 }, scope, m.p95 === true))[0]),
    series: async (range, scope) => (await windows(range, scope, m.p95 === true)).map(m.reading),
  }));
  const cost = traceSources.find((s) => s.id === 'llm.cost_usd')!;
  cost.budget = async (scope, at) => {
    const spend = await llm.monthSpend((await projectOf(scope)).id, at);
    return { spent: spend.cost_usd, cap: spend.cap_usd };
  };

  const evalScore: AlertSource = {
    id: 'llm.eval_score', summary: 'Average eval score (0..1) of the traces made in the window', unit: 'score',
    scopes: ['project', 'template', 'version'], requiredScopes: ['project'],
    async read(window, scope) {
      const summary = await llm.evalScores({
        project_id: (await projectOf(scope)).id, from: window.from, to: window.to,
        ...(scope.template !== undefined ? { template: scope.template } : {}), ...(scope.version !== undefined ? { version: scope.version } : {}),
      });
      return { value: summary.avg_score, samples: summary.samples };
    },
  };

  const versions: AlertSource = {
    id: 'llm.prompt_versions', summary: 'New prompt versions of a project (prompt_version_change rules fire on each at once)', unit: 'count',
    scopes: ['project', 'template'],
    async read(window, scope) {
      const list = await llm.promptVersions(window.from, 1000);
      const n = list.filter((v) => v.created_at < window.to && (scope.project === undefined || v.project === scope.project)
        && (scope.template === undefined || v.template === scope.template)).length;
      return { value: n, samples: n };
    },
  };
  return [...traceSources, evalScore, versions];
}
