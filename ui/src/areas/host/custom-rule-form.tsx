// A new custom rule: its kind, what it watches and its limit, a Test that shows what the check sees now (POST
// /api/customtest, nothing saved), then Save.
import { useId, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { ErrorState } from '../../components/error-state.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { CustomKind, CustomDraft, CustomTestAnswer } from './host-api.js';
import { CUSTOM_KINDS, describeRule, draftProblem, KIND_TEXT, toInput } from './custom-rule-text.js';

function TestResult({ result }: { result: CustomTestAnswer }) {
  const verdict = result.would_fire === null ? <Badge tone="warning">Cannot look</Badge> : result.would_fire ? <Badge tone="danger">Would fire now</Badge> : <Badge tone="success">Would not fire now</Badge>;
  return (
    <div class="custom-test" role="status">
      {verdict}
      <p class="custom-test-detail">{result.detail}</p>
      <span class="muted">checked in {result.elapsed_ms} ms</span>
    </div>
  );
}

export function CustomRuleForm({ onSave, onCancel }: { onSave(rule: CustomDraft): Promise<void>; onCancel(): void }) {
  const id = useId();
  const [draft, setDraft] = useState<CustomDraft>({ name: '', kind: 'unit', target: '', value: null, user: false });
  const [result, setResult] = useState<CustomTestAnswer>();
  const [busy, setBusy] = useState<'test' | 'save'>();
  const [error, setError] = useState<ApiError>();
  const [shown, setShown] = useState<string | null>(null);
  const text = KIND_TEXT[draft.kind];
  const set = (patch: Partial<CustomDraft>) => {
    setDraft({ ...draft, ...patch });
    setResult(undefined);
    setShown(null);
  };
  const problem = draftProblem(draft);
  const run = async (what: 'test' | 'save') => {
    if (problem) return setShown(problem);
    setBusy(what);
    setError(undefined);
    try {
      if (what === 'test') setResult(await postJson<CustomTestAnswer>('/api/customtest', { rule: toInput(draft) }, { what: 'the test' }));
      else await onSave(toInput(draft));
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <form class="custom-form" aria-label="New custom rule" onSubmit={(e) => { e.preventDefault(); void run('save'); }}>
      <div class="custom-form-grid">
        <div class="field">
          <label class="field-label" for={`${id}-kind`}>Kind</label>
          <select id={`${id}-kind`} class="input" value={draft.kind} onChange={(e) => set({ kind: e.currentTarget.value as CustomKind, value: KIND_TEXT[e.currentTarget.value as CustomKind].value?.fallback ?? null })}>
            {CUSTOM_KINDS.map((k) => <option key={k} value={k}>{KIND_TEXT[k].label}</option>)}
          </select>
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-name`}>Name</label>
          <input id={`${id}-name`} class="input" maxLength={60} value={draft.name} placeholder="Shown in the notice" onInput={(e) => set({ name: e.currentTarget.value })} />
        </div>
        <div class="field field-wide">
          <label class="field-label" for={`${id}-target`}>{text.target}</label>
          <input id={`${id}-target`} class="input input-mono" maxLength={1000} value={draft.target} placeholder={text.example} onInput={(e) => set({ target: e.currentTarget.value })} />
        </div>
        {text.value && (
          <div class="field">
            <label class="field-label" for={`${id}-value`}>{text.value.label} ({text.value.unit})</label>
            <input id={`${id}-value`} class="input numeric" type="number" min={0} step="any" value={draft.value ?? ''} onInput={(e) => set({ value: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })} />
          </div>
        )}
        {draft.kind === 'unit' && (
          <label class="check custom-user">
            <input type="checkbox" checked={draft.user ?? false} onChange={(e) => set({ user: e.currentTarget.checked })} />
            A user unit (<code class="inline-code">systemctl --user</code>)
          </label>
        )}
      </div>
      <p class="field-hint">{draft.target.trim() ? describeRule(draft) : 'Fill in what it watches; Test shows what the check sees now, before you save.'}</p>
      {shown && <p class="field-error" role="alert">{shown}</p>}
      {result && <TestResult result={result} />}
      {error && <ErrorState error={error} compact />}
      <div class="form-actions">
        <button type="button" class="button button-secondary" disabled={!!busy} onClick={() => run('test')}>{busy === 'test' ? 'Testing…' : 'Test'}</button>
        <button type="submit" class="button button-primary" disabled={!!busy}>Save the rule</button>
        <button type="button" class="button button-ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
