// A rule's editor: what it watches (source and scope), when it fires (condition, window, min_samples), how it
// notifies (channels, severity, cooldown, resolved), with the live preview beside it.
import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { postJson, putJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { AlertRule, AlertSource, Channel } from './alerts-api.js';
import { CONDITIONS, newRuleFields, ruleFields, ruleInput, type RuleFields } from './rule-form.js';
import { RulePreviewPanel } from './rule-preview.js';

export interface RuleEditorProps {
  rule?: AlertRule;
  sources: AlertSource[];
  channels: Channel[];
  onSaved(rule: AlertRule): void;
  onCancel(): void;
}

function Field({ label, hint, error, children }: { label: string; hint?: ComponentChildren; error?: string; children: (id: string, described: string) => ComponentChildren }) {
  const id = useId();
  return (
    <div class="field">
      <label class="field-label" for={id}>{label}</label>
      {children(id, `${id}-hint`)}
      {error ? <p class="field-error" id={`${id}-hint`}>{error}</p> : hint ? <p class="field-hint" id={`${id}-hint`}>{hint}</p> : null}
    </div>
  );
}

export function RuleEditor({ rule, sources, channels, onSaved, onCancel }: RuleEditorProps) {
  const [f, setF] = useState<RuleFields>(() => (rule ? ruleFields(rule) : newRuleFields(sources)));
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof RuleFields>(key: K, value: RuleFields[K]) => setF((x) => ({ ...x, [key]: value }));
  const source = sources.find((s) => s.id === f.source);
  const result = ruleInput(f, source);
  const problem = 'field' in result ? result : undefined;
  const fieldError = (field: string) => (touched && problem?.field === field ? problem.problem : undefined);
  const text = (key: 'name' | 'threshold' | 'pct' | 'z' | 'window' | 'cooldown' | 'min_samples', label: string, hint?: string, mono = false) => (
    <Field label={label} hint={hint} error={fieldError(key)}>
      {(id, d) => <input id={id} aria-describedby={d} class={`input${mono ? ' input-mono' : ''}`} value={f[key]} onInput={(e) => set(key, e.currentTarget.value)} />}
    </Field>
  );
  const save = async (e: Event) => {
    e.preventDefault();
    setTouched(true);
    if (!('input' in result)) return;
    setBusy(true);
    setError(undefined);
    try {
      onSaved(rule
        ? await putJson<AlertRule>(`/api/alerts/rules/${encodeURIComponent(rule.id)}`, result.input, { what: 'the rule' })
        : await postJson<AlertRule>('/api/alerts/rules', result.input, { what: 'the new rule' }));
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const toggleChannel = (id: string, on: boolean) => set('channels', on ? [...f.channels, id] : f.channels.filter((c) => c !== id));
  return (
    <Card title={rule ? `Edit “${rule.name}”` : 'New rule'} description="The preview judges the rule against the last 24 h of stored data as you type" class="rule-editor">
      <div class="rule-editor-layout">
        <form class="rule-form" onSubmit={save} noValidate>
          {text('name', 'Name', 'The title of each notification.')}
          <Field label="Watches" hint={source?.summary} error={fieldError('source')}>
            {(id, d) => (
              <select id={id} aria-describedby={d} class="input" value={f.source} onChange={(e) => setF((x) => ({ ...x, source: e.currentTarget.value, scope: {} }))}>
                {sources.map((s) => <option key={s.id} value={s.id}>{s.id} ({s.unit})</option>)}
              </select>
            )}
          </Field>
          {source && source.scopes.length > 0 && (
            <div class="field-row">
              {source.scopes.map((key) => (
                <Field key={key} label={`${key[0].toUpperCase()}${key.slice(1)}${source.required_scopes.includes(key) ? '' : ' (optional)'}`} error={fieldError(`scope.${key}`)}
                  hint={key === 'label' ? 'name=value' : undefined}>
                  {(id, d) => <input id={id} aria-describedby={d} class="input" value={f.scope[key] ?? ''} onInput={(e) => set('scope', { ...f.scope, [key]: e.currentTarget.value })} />}
                </Field>
              ))}
            </div>
          )}
          <div class="field-row">
            <Field label="Fires when">
              {(id) => (
                <select id={id} class="input" value={f.type} onChange={(e) => set('type', e.currentTarget.value as RuleFields['type'])}>
                  {CONDITIONS.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
                </select>
              )}
            </Field>
            {(f.type === 'gt' || f.type === 'lt') && text('threshold', 'Threshold', source ? `In ${source.unit}.` : undefined, true)}
            {f.type === 'pct_change' && (
              <Field label="Direction">
                {(id) => (
                  <select id={id} class="input" value={f.direction} onChange={(e) => set('direction', e.currentTarget.value as RuleFields['direction'])}>
                    <option value="up">up</option><option value="down">down</option><option value="either">either way</option>
                  </select>
                )}
              </Field>
            )}
            {(f.type === 'pct_change' || f.type === 'budget') && text('pct', f.type === 'budget' ? 'Percent of the budget' : 'Percent', undefined, true)}
            {f.type === 'anomaly' && text('z', 'z-score', 'Fires at |z| at or above it.', true)}
          </div>
          <div class="field-row">
            {text('window', 'Window', 'e.g. 5m, 1h', true)}
            {text('min_samples', 'Min samples', 'Fewer never fire.', true)}
            {text('cooldown', 'Cooldown', 'Quiet after firing.', true)}
            <Field label="Severity">
              {(id) => (
                <select id={id} class="input" value={f.severity} onChange={(e) => set('severity', e.currentTarget.value as RuleFields['severity'])}>
                  <option value="info">info</option><option value="warning">warning</option><option value="critical">critical</option>
                </select>
              )}
            </Field>
          </div>
          <fieldset class="field rule-channels">
            <legend class="field-label">Notify</legend>
            <label class="check"><input type="checkbox" checked={f.allChannels} onChange={(e) => set('allChannels', e.currentTarget.checked)} /> Every enabled channel</label>
            {!f.allChannels && (channels.length === 0
              ? <p class="field-hint">No channel yet: add one below, or keep every channel.</p>
              : channels.map((c) => (
                <label key={c.id} class="check"><input type="checkbox" checked={f.channels.includes(c.id)} onChange={(e) => toggleChannel(c.id, e.currentTarget.checked)} /> {c.name} <span class="muted">({c.type})</span></label>
              )))}
            {fieldError('channels') && <p class="field-error">{fieldError('channels')}</p>}
            <label class="check"><input type="checkbox" checked={f.notify_resolved} onChange={(e) => set('notify_resolved', e.currentTarget.checked)} /> Also notify when it resolves</label>
            <label class="check"><input type="checkbox" checked={f.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} /> Enabled</label>
          </fieldset>
          {error && <ErrorState error={error} compact />}
          <div class="form-actions">
            <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Saving…' : rule ? 'Save the rule' : 'Create the rule'}</button>
            <button type="button" class="button button-ghost" onClick={onCancel}>Cancel</button>
          </div>
        </form>
        <RulePreviewPanel input={'input' in result ? result.input : undefined} problem={problem?.problem} />
      </div>
    </Card>
  );
}
