// One LLM project: its keys and a rotation with a grace period (the new key shown once), its settings (budget and
// the sampling over it, plan limits, redaction, retention), and its deletion. A project the config file declares is
// read-only here: the file wins, and the page says where to change it.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Segmented } from '../../components/segmented.js';
import { Loading } from '../../components/skeleton.js';
import type { ApiError } from '../../data/api-error.js';
import { deleteJson, postJson, putJson } from '../../data/api.js';
import { useResource } from '../../data/use-resource.js';
import { formatDateTime } from '../../format/time.js';
import { announce } from '../../shell/announcer.js';
import { Link, navigate } from '../../shell/router.js';
import { shellInfo, vigilCli } from '../../shell/shell-info.js';
import { shellWord } from './gate-form.js';
import type { PageProps } from '../types.js';
import { formatUsd } from './figures.js';
import { DETECTORS, projectApi, type Project, type ProjectList, type RotatedKey } from './llm-api.js';
import { KeyOnce } from './onboarding.js';
import { draftOf, effectiveText, fieldOfProblem, settingsOf, type DraftField, type SettingsDraft } from './settings-form.js';

const GRACE = [
  { value: '0', label: 'Now', description: 'The old key stops working now' },
  { value: '1h', label: '1 hour', description: 'The old key keeps working for 1 hour' },
  { value: '24h', label: '24 hours', description: 'The old key keeps working for 24 hours' },
  { value: '7d', label: '7 days', description: 'The old key keeps working for 7 days' },
] as const;
type Grace = (typeof GRACE)[number]['value'];

const DETECTOR_TEXT: Record<string, string> = {
  email: 'E-mail addresses', card_number: 'Card numbers (Luhn)', iban: 'IBANs', jwt: 'JWTs', api_key: 'API keys', bearer_token: 'Bearer tokens',
  aws_access_key_id: 'AWS access key ids', private_key: 'Private keys (PEM)', us_ssn: 'US social security numbers',
};

/** Why a config-file project cannot change here, and where it can: said once, above everything it covers. */
function FromConfig() {
  const file = shellInfo.value?.config_file;
  return (
    <div class="notice read-only-notice" role="note">
      <strong>Read-only: the config file owns this project.</strong> Its key and settings are declared in{' '}
      <code class="inline-code">llm.projects</code>{file ? <> of <code class="inline-code">{file}</code></> : ''}, which wins over the
      dashboard. Change them there, then reload Vigil (SIGHUP) or restart it.
    </div>
  );
}

function Keys({ p, onRotated }: { p: Project; onRotated(): void }) {
  const [grace, setGrace] = useState<Grace>('24h');
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<RotatedKey>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const readOnly = p.source === 'config';
  const rotate = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setRotated(await postJson<RotatedKey>(projectApi(p.name, '/rotate-key'), { grace }, { what: 'the key rotation' }));
      setConfirming(false);
      onRotated();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const graceText = GRACE.find((g) => g.value === grace)!.description.replace('The old key', 'its current key');
  return (
    <Card title="Keys" description="Clients send the key as X-Service-Project-Key. Vigil keeps only each key's SHA-256 and a hint.">
      {p.keys.length === 0 ? <p class="muted">This project has no key: rotate to give it one.</p> : (
        <ul class="key-list">
          {p.keys.map((k) => (
            <li key={k.hint}>
              <code class="inline-code">{k.hint}</code>
              {k.expires_at ? <Badge tone="warning">stops at {formatDateTime(Date.parse(k.expires_at))}</Badge> : <Badge tone="success">active</Badge>}
              <span class="muted">made {formatDateTime(Date.parse(k.created_at))}{k.source === 'config' ? ', from the config file' : ''}</span>
            </li>
          ))}
        </ul>
      )}
      {readOnly ? null : rotated ? (
        <KeyOnce project={p.name} keyText={rotated.key} rotated onDone={() => { setRotated(undefined); announce('The new key is in place.'); }} />
      ) : (
        <div class="rotate">
          <div class="rotate-grace">
            <span class="field-label" id="grace-label">Old keys keep working</span>
            <Segmented label="How long the old keys keep working" options={GRACE} value={grace} onChange={(v) => { setGrace(v); setConfirming(false); }} />
          </div>
          {confirming ? (
            <div class="confirm" role="group" aria-label="Confirm the rotation">
              <p>A new key replaces the current one: {graceText.charAt(0).toLowerCase() + graceText.slice(1)}. Clients need the new key before then.</p>
              <div class="form-actions">
                <button type="button" class="button button-primary" disabled={busy} onClick={rotate}>{busy ? 'Rotating…' : 'Rotate the key'}</button>
                <button type="button" class="button button-ghost" onClick={() => setConfirming(false)}>Cancel</button>
              </div>
            </div>
          ) : <button type="button" class="button button-secondary" onClick={() => setConfirming(true)}>Rotate key…</button>}
          {error && <ErrorState error={error} compact />}
        </div>
      )}
    </Card>
  );
}

function Field({ id, label, hint, error, children }: { id: string; label: string; hint: ComponentChildren; error?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label class="field-label" for={id}>{label}</label>
      {children}
      {error ? <p class="field-error" id={`${id}-hint`}>{error}</p> : <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
    </div>
  );
}

function Settings({ p, onSaved }: { p: Project; onSaved(): void }) {
  const id = useId();
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(p.settings));
  const [problems, setProblems] = useState<Partial<Record<DraftField, string>>>({});
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [baseline, setBaseline] = useState<SettingsDraft>(() => draftOf(p.settings));
  // A newer project (after a save, or a change elsewhere) refills the form only if nothing was typed since the last
  // fill: the reload that follows a save must not wipe what the user has started typing meanwhile.
  useEffect(() => {
    const next = draftOf(p.settings);
    setDraft((d) => (JSON.stringify(d) === JSON.stringify(baseline) ? next : d));
    setBaseline(next);
  }, [p.updated_at]);
  const readOnly = p.source === 'config';
  const e = effectiveText(p.effective);
  const set = (key: keyof SettingsDraft) => (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement).value;
    setDraft((d) => ({ ...d, [key]: value }));
    setSaved(false);
  };
  const detect = draft.detect ?? p.effective.redact.detect;
  const toggle = (kind: string) => {
    // In the page's order whatever order they were stored in, so a saved list reads as the form shows it.
    const next = DETECTORS.filter((k) => (k === kind ? !detect.includes(k) : detect.includes(k)));
    setDraft((d) => ({ ...d, detect: next }));
    setSaved(false);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const result = settingsOf(draft);
    if ('problems' in result) return setProblems(result.problems);
    setProblems({});
    setError(undefined);
    setBusy(true);
    try {
      await putJson(projectApi(p.name, '/settings'), result.settings, { what: 'the settings' });
      setSaved(true);
      announce(`Settings of ${p.name} saved.`);
      onSaved();
    } catch (err) {
      // A problem the server names by its key path goes on its field.
      const onField = fieldOfProblem((err as ApiError).message);
      if ((err as ApiError).kind === 'bad_request' && onField) setProblems({ [onField.field]: onField.text });
      else setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  // Read-only, a field shows the value in force as text: what the file sets, else the default, said as such.
  const shown = (key: keyof SettingsDraft, fallback: string) => (readOnly && !draft[key] ? `${fallback} (default)` : draft[key] as string);
  const input = (key: keyof SettingsDraft, placeholder: string, mono = true) => (
    <input id={`${id}-${key}`} class={`input${mono ? ' input-mono' : ''}`} value={shown(key, placeholder)} placeholder={placeholder} readOnly={readOnly}
      autoComplete="off" spellcheck={false} aria-invalid={problems[key] ? true : undefined} aria-describedby={`${id}-${key}-hint`} onInput={set(key)} />
  );
  return (
    <Card title="Settings" description={readOnly ? 'As the config file sets them; the others follow llm.defaults, else Vigil\'s defaults' : 'Empty fields follow llm.defaults, else Vigil\'s defaults (shown greyed)'}>
      <form class={readOnly ? 'settings-form read-only' : 'settings-form'} onSubmit={submit} noValidate>
        <fieldset class="settings-group">
          <legend>Budget</legend>
          <Field id={`${id}-monthlyUsd`} label="Monthly cap (USD)" error={problems.monthlyUsd}
            hint={<>Month-to-date spend, UTC calendar month. In force: {e.budget}; this month {formatUsd(p.usage.cost_usd)}.</>}>
            {input('monthlyUsd', p.effective.monthlyBudgetUsd === null ? 'no cap' : String(p.effective.monthlyBudgetUsd))}
          </Field>
          <Field id={`${id}-sampleRate`} label="Share kept over the cap" error={problems.sampleRate}
            hint="From 0 to 1: 0.1 keeps one call in ten once the cap is reached; 0 keeps none.">
            {input('sampleRate', e.sampleRate)}
          </Field>
        </fieldset>
        <fieldset class="settings-group">
          <legend>Plan limits</legend>
          <Field id={`${id}-plan`} label="Plan" error={problems.plan}
            hint="A plan of llm.plans in the config file: its limits, budget and retention apply where this project sets none. See Billing.">
            {input('plan', e.plan, false)}
          </Field>
          <Field id={`${id}-itemsPerMonth`} label="Traces a month" error={problems.itemsPerMonth} hint="Past it, ingest answers 429 until the next month.">
            {input('itemsPerMonth', e.itemsPerMonth)}
          </Field>
          <Field id={`${id}-itemsPerBatch`} label="Traces a request" error={problems.itemsPerBatch} hint="A larger batch is refused (413); the Node client splits its own.">
            {input('itemsPerBatch', e.itemsPerBatch)}
          </Field>
          <Field id={`${id}-bodyBytes`} label="Request body size" error={problems.bodyBytes} hint="Compressed and inflated: 5mb, 512kb. At most llm.max_body_bytes.">
            {input('bodyBytes', e.bodyBytes)}
          </Field>
          <Field id={`${id}-retention`} label="Keep traces for" error={problems.retention} hint="Older traces are deleted: 30d, 12h, 1d12h.">
            {input('retention', e.retention)}
          </Field>
        </fieldset>
        <fieldset class="settings-group settings-redaction">
          <legend>Redaction, before anything is stored</legend>
          <Field id={`${id}-jsonFields`} label="JSON paths to mask" error={problems.jsonFields}
            hint={<>One a line, over the trace item: <code class="inline-code">$.input.**.email</code>, <code class="inline-code">$.metadata.user.phone</code>.</>}>
            <textarea id={`${id}-jsonFields`} class="input input-mono textarea" rows={readOnly ? Math.max(1, draft.jsonFields.split('\n').length) : 3}
              value={shown('jsonFields', 'none')} readOnly={readOnly}
              placeholder="$.metadata.user.phone" spellcheck={false} aria-invalid={problems.jsonFields ? true : undefined}
              aria-describedby={`${id}-jsonFields-hint`} onInput={set('jsonFields')} />
          </Field>
          <div class="field">
            <span class="field-label" id={`${id}-detect`}>Detectors, in every string of input, output and metadata</span>
            {readOnly ? (
              <p class="detectors-read">{detect.length ? detect.map((k) => DETECTOR_TEXT[k] ?? k).join(', ') : 'None'}</p>
            ) : <div class="detectors" role="group" aria-labelledby={`${id}-detect`}>
              {DETECTORS.map((kind) => (
                <label class="check" key={kind}>
                  <input type="checkbox" checked={detect.includes(kind)} onChange={() => toggle(kind)} />
                  {DETECTOR_TEXT[kind] ?? kind}
                </label>
              ))}
            </div>}
            <p class="field-hint">{draft.detect === null ? 'Following the default: ' : 'Set for this project: '}{detect.length ? `${detect.length} of ${DETECTORS.length} on` : 'none on'}.</p>
          </div>
        </fieldset>
        {!readOnly && (
          <div class="form-actions">
            <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Saving…' : 'Save settings'}</button>
            {saved && <span class="input-status" role="status">Saved. Ingest in every process applies it within a minute.</span>}
          </div>
        )}
        {error && <ErrorState error={error} compact />}
      </form>
    </Card>
  );
}

function Danger({ p }: { p: Project }) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  if (p.source === 'config') return null;
  const remove = async (event: Event) => {
    event.preventDefault();
    if (typed !== p.name) return;
    setBusy(true);
    setError(undefined);
    try {
      await deleteJson(projectApi(p.name), { what: 'the deletion' });
      announce(`Project ${p.name} deleted.`);
      navigate('/llm/projects');
    } catch (err) {
      setError(err as ApiError);
      setBusy(false);
    }
  };
  return (
    <Card title="Delete the project" class="danger-card">
      <form class="delete-form" onSubmit={remove}>
        <p>Deletes <strong>{p.name}</strong>, its keys (they stop working at once) and all its traces and prompt versions. This cannot be undone.</p>
        <div class="field">
          <label class="field-label" for={id}>Type <code class="inline-code">{p.name}</code> to confirm</label>
          <input id={id} class="input input-mono" value={typed} autoComplete="off" spellcheck={false} onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)} />
        </div>
        <div class="form-actions">
          <button type="submit" class="button button-danger" disabled={typed !== p.name || busy}>{busy ? 'Deleting…' : 'Delete the project'}</button>
        </div>
        {error && <ErrorState error={error} compact />}
      </form>
    </Card>
  );
}

export default function ProjectPage({ params }: PageProps) {
  const list = useResource<ProjectList>('/api/llm/projects', 'the LLM projects');
  const p = list.data?.data.find((x) => x.name === params.name);
  const back = <Link href="/llm/projects" class="button button-secondary">All projects</Link>;
  if (list.data && !p) {
    return (
      <>
        <PageHeader title={params.name} subtitle="LLM project" />
        <Card>
          <EmptyState icon="llm" title="No such project" actions={back}>
            <p>No project is named <strong>{params.name}</strong>: it was deleted, or the name is mistyped.</p>
          </EmptyState>
        </Card>
      </>
    );
  }
  return (
    <>
      <PageHeader title={params.name}
        subtitle={p ? <>LLM project · {p.source === 'config' ? 'declared in the config file' : 'made in the dashboard or with the CLI'} · since {formatDateTime(Date.parse(p.created_at))}</> : 'LLM project'}
        actions={<>
          {p && <Link href={`/llm?project=${encodeURIComponent(p.name)}`} class="button button-secondary">Traces</Link>}
          {back}
        </>} />
      {list.error && <ErrorState error={list.error} onRetry={list.reload} />}
      {!list.data && !list.error && <Loading label="Loading the project" lines={8} />}
      {p && (
        <div class="stack">
          {p.source === 'config' && <FromConfig />}
          <Keys p={p} onRotated={list.reload} />
          <Settings p={p} onSaved={list.reload} />
          <Danger p={p} />
          {p.source !== 'config' && <details class="cli-hint">
            <summary>The same from the CLI</summary>
            <CodeBlock label="Project commands" code={`${vigilCli()} project rotate-key ${p.name} --grace 24h${shellInfo.value?.config_file ? ` -config ${shellWord(shellInfo.value.config_file)}` : ''}\n${vigilCli()} project delete ${p.name}${shellInfo.value?.config_file ? ` -config ${shellWord(shellInfo.value.config_file)}` : ''}`} />
          </details>}
        </div>
      )}
    </>
  );
}
