// "Would this rule have fired in the last 24 h?": the preview route's answer as a chart of the rule's value per
// window, and the times it would have started firing.
import { useEffect, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Chart } from '../../components/chart.js';
import { ErrorState } from '../../components/error-state.js';
import { postJson, isAbort } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { formatWhen } from '../../format/time.js';
import type { RuleInput, RulePreview } from './alerts-api.js';

/** How long the editor waits after the last keystroke before it asks (the preview reads 24 h of stored data). */
const PREVIEW_DELAY_MS = 400;

export function RulePreviewPanel({ input, problem }: { input: RuleInput | undefined; problem: string | undefined }) {
  const [preview, setPreview] = useState<RulePreview>();
  const [error, setError] = useState<ApiError>();
  const key = input ? JSON.stringify(input) : '';
  useEffect(() => {
    if (!input) return;
    const controller = new AbortController();
    const id = setTimeout(() => {
      postJson<RulePreview>('/api/alerts/rules/preview', input, { signal: controller.signal, what: 'the rule preview' }).then(
        (p) => { setPreview(p); setError(undefined); },
        (err) => { if (!isAbort(err)) setError(err as ApiError); },
      );
    }, PREVIEW_DELAY_MS);
    return () => { clearTimeout(id); controller.abort(); };
  }, [key]);
  const points = preview?.points ?? [];
  const times = points.map((p) => Date.parse(p.at));
  const step = times.length > 1 ? times[1] - times[0] : 60_000;
  return (
    <section class="rule-preview" aria-labelledby="rule-preview-title" aria-live="polite">
      <h3 id="rule-preview-title" class="detail-heading">Would it have fired in the last 24 h?</h3>
      {!input ? <p class="muted">{problem ?? 'Fill in the rule to see.'}</p>
        : error ? <ErrorState error={error} compact />
        : !preview ? <p class="muted">Judging the rule against stored data…</p>
        : (
          <>
            <p data-preview-verdict={preview.would_fire ? 'fires' : 'quiet'}>
              {preview.would_fire
                ? <><Badge tone="danger">would fire</Badge> {preview.firings.length} time{preview.firings.length === 1 ? '' : 's'}</>
                : <Badge tone="success">would not fire</Badge>}
              <span class="muted"> {preview.note}</span>
            </p>
            {points.some((p) => p.value !== null) && (
              <Chart summary={`The rule's value per window over the last 24 h${preview.would_fire ? `, firing ${preview.firings.length} times` : ''}`}
                times={times} stepMs={step} height={140} format={(v) => String(Math.round(v * 1000) / 1000)}
                series={[
                  { label: 'Value', color: '--chart-1', kind: 'line', values: points.map((p) => p.value) },
                  { label: 'Breach', color: '--chart-4', kind: 'bars', values: points.map((p) => (p.breach ? p.value : null)) },
                ]} />
            )}
            {preview.firings.length > 0 && (
              <ul class="preview-firings">
                {preview.firings.slice(0, 8).map((f) => <li key={f}>Would have fired at {formatWhen(Date.parse(f))}</li>)}
                {preview.firings.length > 8 && <li class="muted">and {preview.firings.length - 8} more</li>}
              </ul>
            )}
          </>
        )}
    </section>
  );
}
