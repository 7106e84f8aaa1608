// A flow: requests run one after the other on the server, each step's extractions (a JSON path, a header, the
// status) filling {{variables}} of the steps after it. The run stops at the first failing step and says why.
import { useEffect, useState } from 'preact/hooks';
import { Badge } from '../../../components/badge.js';
import { Card } from '../../../components/card.js';
import { ErrorState } from '../../../components/error-state.js';
import type { ApiError } from '../../../data/api-error.js';
import { postJson } from '../../../data/api.js';
import type { ApiFlow, ApiFlowResult, ApiFlowStep } from './client-api.js';
import { ResponsePanel } from './response-panel.js';

type Extraction = ApiFlowStep['extract'][number];

function StepEditor({ step, index, onChange, onRemove }: { step: ApiFlowStep; index: number; onChange(s: ApiFlowStep): void; onRemove(): void }) {
  const setEx = (i: number, change: Partial<Extraction>) => onChange({ ...step, extract: step.extract.map((x, j) => (j === i ? { ...x, ...change } : x)) });
  const label = `Step ${index + 1}`;
  return (
    <li class="ac-step">
      <div class="ac-step-head">
        <span class="ac-step-n">{index + 1}</span>
        <Badge>{step.request.method}</Badge>
        <span class="ac-step-name">{step.request.name || step.request.url}</span>
        <button type="button" class="button button-ghost button-small" aria-label={`Remove step ${index + 1}`} onClick={onRemove}>Remove</button>
      </div>
      {step.extract.map((x, i) => (
        <div class="ac-extract" key={i}>
          <input class="input input-mono" aria-label={`${label} variable ${i + 1}`} value={x.variable} placeholder="token" onInput={(e) => setEx(i, { variable: e.currentTarget.value })} />
          <span class="muted">from</span>
          <select class="input" aria-label={`${label} source ${i + 1}`} value={x.from} onChange={(e) => setEx(i, { from: e.currentTarget.value as Extraction['from'] })}>
            <option value="json">JSON path</option><option value="header">header</option><option value="status">status</option>
          </select>
          {x.from !== 'status' && <input class="input input-mono" aria-label={`${label} path ${i + 1}`} value={x.path} placeholder={x.from === 'json' ? '$.data.token' : 'X-Session'} onInput={(e) => setEx(i, { path: e.currentTarget.value })} />}
          <button type="button" class="button button-ghost button-small" aria-label={`Remove ${x.variable || 'extraction'}`} onClick={() => onChange({ ...step, extract: step.extract.filter((_, j) => j !== i) })}>Remove</button>
        </div>
      ))}
      <button type="button" class="button button-small" onClick={() => onChange({ ...step, extract: [...step.extract, { variable: '', from: 'json', path: '' }] })}>Take a value into a variable</button>
    </li>
  );
}

export function FlowPanel({ flow, onSave, onDelete, onClose }: { flow: ApiFlow; onSave(f: ApiFlow): Promise<void>; onDelete(): Promise<void>; onClose(): void }) {
  const [draft, setDraft] = useState(flow);
  const [result, setResult] = useState<ApiFlowResult>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  useEffect(() => { setDraft(flow); setResult(undefined); }, [flow]);
  const act = async (fn: () => Promise<void>) => { setError(undefined); try { await fn(); } catch (err) { setError(err as ApiError); } };
  const run = () => act(async () => {
    setBusy(true);
    try {
      await onSave(draft);
      setResult(await postJson<ApiFlowResult>('/api/http/flow', { flow_id: draft.id }, { what: 'the flow' }));
    } finally {
      setBusy(false);
    }
  });
  return (
    <Card title={`Flow: ${flow.name}`} description="Steps run in order; a value taken from one answer fills {{variable}} in the next requests."
      actions={<button type="button" class="button button-ghost button-small" onClick={onClose}>Close</button>}>
      {draft.steps.length === 0 && <p class="muted">No steps yet: open a request and choose “Add to flow”.</p>}
      <ol class="ac-steps">
        {draft.steps.map((s, i) => <StepEditor key={i} step={s} index={i} onChange={(n) => setDraft({ ...draft, steps: draft.steps.map((x, j) => (j === i ? n : x)) })}
          onRemove={() => setDraft({ ...draft, steps: draft.steps.filter((_, j) => j !== i) })} />)}
      </ol>
      <div class="form-actions">
        <button type="button" class="button button-primary" disabled={busy || draft.steps.length === 0} onClick={() => void run()}>{busy ? 'Running…' : 'Run flow'}</button>
        <button type="button" class="button" onClick={() => void act(() => onSave(draft))}>Save flow</button>
        <button type="button" class="button button-ghost" onClick={() => void act(onDelete)}>Delete flow</button>
      </div>
      {error && <ErrorState error={error} compact />}
      {result && (
        <div class="ac-flow-result">
          <p role="status"><Badge tone={result.completed ? 'success' : 'danger'}>{result.completed ? 'Flow passed' : 'Flow stopped'}</Badge> {result.steps.length} of {draft.steps.length} steps ran</p>
          <ol class="ac-steps">
            {result.steps.map((s, i) => (
              <li key={i} class="ac-step">
                <div class="ac-step-head">
                  <span class="ac-step-n">{i + 1}</span>
                  <span class="ac-step-name">{s.name}</span>
                  <Badge tone={s.ok ? 'success' : 'danger'}>{s.ok ? 'ok' : 'failed'}</Badge>
                </div>
                {s.error && <p class="field-error">{s.error}</p>}
                {Object.keys(s.extracted).length > 0 && (
                  <dl class="ac-extracted">{Object.entries(s.extracted).map(([k, v]) => <div key={k}><dt>{`{{${k}}}`}</dt><dd>{v.length > 48 ? `${v.slice(0, 48)}…` : v}</dd></div>)}</dl>
                )}
                {s.response && <details><summary>Response {s.response.status}</summary><ResponsePanel r={s.response} /></details>}
              </li>
            ))}
          </ol>
        </div>
      )}
    </Card>
  );
}
