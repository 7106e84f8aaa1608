// The scores the application sent with a trace (Langfuse `score-create`), under its eval results: name, value as
// sent, comment, source and time. Omitted when there are none, or while the evaluators plugin (which keeps them) is off.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { useResource } from '../../data/use-resource.js';
import { formatDateTime } from '../../format/time.js';
import { isTraceLevel, sentValueText, traceScoresPath, type SentScorePage } from './scores-api.js';
import { evaluatorsOn } from './trace-evals.js';

export function TraceScores({ project, traceId }: { project: string; traceId: string }) {
  const scores = useResource<SentScorePage>(!evaluatorsOn() ? null : traceScoresPath(project, traceId), 'the scores sent with the trace');
  if (!scores.data || scores.data.data.length === 0) return null;
  return (
    <Card title="Scores sent with the trace" description="As the application sent them, on its own scale: never part of eval scores" padded={false}>
      <ul class="eval-results" aria-label="Scores sent with the trace">
        {scores.data.data.map((s) => (
          <li key={s.id} class="eval-result">
            <div class="eval-result-head">
              <span class="eval-result-name">{s.name}</span>
              <span class="muted"> · {s.source}{isTraceLevel(s) ? ' · whole trace' : ''}</span>
              <span class="eval-result-score"><Badge>{sentValueText(s)}</Badge></span>
            </div>
            {s.comment !== null && <p class="eval-result-reason"><span class="eval-result-label">Comment:</span> {s.comment}</p>}
            <p class="eval-result-meta muted">{s.data_type.toLowerCase()} · {formatDateTime(Date.parse(s.created_at))}</p>
          </li>
        ))}
      </ul>
    </Card>
  );
}
