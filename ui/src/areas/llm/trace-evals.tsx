// A trace's eval results on its page: each definition's score or failure, with the judge's reasoning or the function's
// reason. Nothing while the evaluators plugin is off (its routes are absent) or no eval scored the trace.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { useResource } from '../../data/use-resource.js';
import { formatLatency } from '../../format/numbers.js';
import { Link } from '../../shell/router.js';
import { shellInfo } from '../../shell/shell-info.js';
import { EVAL_TYPE_LABEL, evalsPath, unscoredText, type EvalDefinitionList, type EvalResultPage } from './evals-api.js';
import { formatUsd } from './figures.js';
import { projectApi } from './llm-api.js';

/** Whether the evaluators plugin runs here (its routes exist only then). */
export const evaluatorsOn = (): boolean => shellInfo.value?.plugins.includes('evaluators') ?? false;

export function TraceEvals({ project, traceId }: { project: string; traceId: string }) {
  const results = useResource<EvalResultPage>(!evaluatorsOn() ? null : projectApi(project, `/eval-results?trace_id=${encodeURIComponent(traceId)}&limit=200`), 'the trace\'s eval results');
  const definitions = useResource<EvalDefinitionList>(results.data?.data.length ? projectApi(project, '/evals') : null, 'the eval definitions');
  if (!results.data || results.data.data.length === 0) return null;
  // Shown once the definitions' names are in (or failed to come: then the ids stand in), so no row flips from id to name.
  if (definitions.loading) return null;
  const byId = new Map((definitions.data?.data ?? []).map((d) => [d.id, d]));
  return (
    <Card title="Evals" description="How this trace was scored, by each eval definition that sampled it" padded={false}>
      <ul class="eval-results" aria-label="Eval results of this trace">
        {results.data.data.map((r) => {
          const d = byId.get(r.eval_definition_id);
          return (
            <li key={r.id} class="eval-result">
              <div class="eval-result-head">
                <Link href={evalsPath(project, r.eval_definition_id)} class="eval-result-name">{d?.name ?? r.eval_definition_id}</Link>
                {d && <span class="muted"> · {EVAL_TYPE_LABEL[d.type]}</span>}
                <span class="eval-result-score">
                  {r.status === 'ok' && r.score !== null
                    ? <Badge tone={r.score >= 0.5 ? 'success' : 'warning'}>score {r.score.toFixed(2)}</Badge>
                    : <Badge tone={r.status === 'skipped' ? 'neutral' : 'danger'}>{unscoredText(r)}</Badge>}
                </span>
              </div>
              {r.status !== 'skipped' && <p class="eval-result-reason">
                <span class="eval-result-label">{r.status === 'failed' ? 'Why it failed' : r.method === 'llm_judge' ? 'The judge\'s reasoning' : 'Reason'}:</span>{' '}
                {r.reason ?? <span class="muted">none given</span>}
              </p>}
              <p class="eval-result-meta muted">
                {r.method}{r.model ? ` · ${r.model}` : ''} · {formatLatency(r.latency_ms)}
                {r.cost.tokens_in + r.cost.tokens_out > 0 && <> · {r.cost.tokens_in + r.cost.tokens_out} tokens · {formatUsd(r.cost.usd)}</>}
              </p>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
