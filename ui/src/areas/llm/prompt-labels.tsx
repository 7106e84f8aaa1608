// A prompt template's labels (production, staging, any name): which version each names, moving one to another
// version, attaching a new one, removing one, and the history of every move with who made it. Applications fetch
// a prompt by label (`GET /api/v1/prompts/:name?label=production`), so a move here is a deploy.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { TableFrame } from '../../components/table-frame.js';
import type { ApiError } from '../../data/api-error.js';
import { deleteJson, putJson } from '../../data/api.js';
import { useResource } from '../../data/use-resource.js';
import { formatWhen } from '../../format/time.js';
import { announce } from '../../shell/announcer.js';
import { Link } from '../../shell/router.js';
import { projectApi, templatePath, type PromptLabelChange, type PromptLabels } from './llm-api.js';

/** What a label may be called: the server's pattern (plugins/llm/prompts/label-name.ts), checked here to say why early. */
const LABEL = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

function VersionChoice({ id, label, value, newest, onChange }: { id: string; label: string; value: number; newest: number; onChange(v: number): void }) {
  return (
    <select id={id} class="input input-compact" aria-label={label} value={String(value)} onChange={(e) => onChange(Number((e.currentTarget as HTMLSelectElement).value))}>
      {Array.from({ length: newest }, (_, i) => newest - i).map((v) => <option key={v} value={String(v)}>v{v}</option>)}
    </select>
  );
}

function LabelRow({ project, name, row, newest, onChanged }: {
  project: string; name: string; row: PromptLabels['labels'][number]; newest: number; onChanged(message: string): void;
}) {
  const id = useId();
  const [target, setTarget] = useState(row.version);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const path = projectApi(project, `/prompts/${encodeURIComponent(name)}/labels/${encodeURIComponent(row.label)}`);
  const act = async (what: 'move' | 'remove') => {
    setBusy(true);
    setError(undefined);
    try {
      if (what === 'move') {
        const r = await putJson<PromptLabelChange>(path, { version: target }, { what: `the move of ${row.label}` });
        onChanged(r.changed ? `${row.label} now names version ${target} (it named version ${r.previous_version}).` : `${row.label} already names version ${target}.`);
      } else {
        await deleteJson<PromptLabelChange>(path, { what: `the removal of ${row.label}` });
        onChanged(`${row.label} removed; applications asking for it get their cached copy or fallback.`);
      }
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr>
      <th scope="row"><code class="inline-code">{row.label}</code></th>
      <td data-label="Version" class="numeric"><Link href={templatePath(project, name, { version: row.version })}>v{row.version}</Link></td>
      <td data-label="Moved">{formatWhen(Date.parse(row.updated_at))} <span class="muted">by {row.updated_by}</span></td>
      <td data-label="Move to">
        <div class="inline-actions">
          <VersionChoice id={`${id}-to`} label={`Version for ${row.label}`} value={target} newest={newest} onChange={setTarget} />
          <button type="button" class="button button-secondary" disabled={busy || target === row.version} onClick={() => void act('move')} aria-label={`Move ${row.label}`}>Move</button>
          <button type="button" class="button button-ghost" disabled={busy} onClick={() => void act('remove')} aria-label={`Remove ${row.label}`}>Remove</button>
        </div>
        {error && <ErrorState error={error} compact />}
      </td>
    </tr>
  );
}

function AttachForm({ project, name, newest, version, taken, onChanged }: {
  project: string; name: string; newest: number; version: number; taken: string[]; onChanged(message: string): void;
}) {
  const id = useId();
  const [label, setLabel] = useState('');
  const [target, setTarget] = useState(version);
  const [problem, setProblem] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const wanted = label.trim();
    setError(undefined);
    if (!LABEL.test(wanted)) return setProblem('Use lowercase letters, digits, _, - and ., starting with a letter or digit (at most 64).');
    if (wanted === 'latest') return setProblem('"latest" always names the newest version; it cannot be attached.');
    if (taken.includes(wanted)) return setProblem(`${wanted} is attached already: move it in its row above.`);
    setProblem(undefined);
    setBusy(true);
    try {
      await putJson<PromptLabelChange>(projectApi(project, `/prompts/${encodeURIComponent(name)}/labels/${encodeURIComponent(wanted)}`), { version: target }, { what: `the label ${wanted}` });
      setLabel('');
      onChanged(`${wanted} attached to version ${target}.`);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="attach-label" onSubmit={(e) => void submit(e)} noValidate>
      <div class="field">
        <label class="field-label" for={`${id}-label`}>New label</label>
        <input id={`${id}-label`} class="input" value={label} placeholder="production" autoComplete="off" spellcheck={false}
          aria-invalid={problem ? 'true' : undefined} aria-describedby={`${id}-hint`} onInput={(e) => setLabel((e.currentTarget as HTMLInputElement).value)} />
        {problem ? <p class="field-error" id={`${id}-hint`}>{problem}</p> : <p class="field-hint" id={`${id}-hint`}>Applications fetch by label; a label names one version at a time.</p>}
      </div>
      <div class="field">
        <label class="field-label" for={`${id}-version`}>On version</label>
        <VersionChoice id={`${id}-version`} label="On version" value={target} newest={newest} onChange={setTarget} />
      </div>
      <div class="form-actions"><button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Attaching…' : 'Attach label'}</button></div>
      {error && <ErrorState error={error} compact />}
    </form>
  );
}

/** The labels card and the history card of one template; `version` is the version the page shows (the default target). */
export function PromptLabelsCards({ project, name, version, reloadKey }: { project: string; name: string; version: number; reloadKey: number }) {
  const labels = useResource<PromptLabels>(projectApi(project, `/prompts/${encodeURIComponent(name)}/labels`), `the labels of ${name}`);
  const changed = (message: string) => { announce(message); labels.reload(); };
  // A version created on the page may have moved labels, and is a newest version to offer.
  const seen = useRef(reloadKey);
  useEffect(() => {
    if (seen.current === reloadKey) return;
    seen.current = reloadKey;
    labels.reload();
  }, [reloadKey]);
  if (labels.error) return <ErrorState error={labels.error} onRetry={labels.reload} />;
  const d = labels.data;
  if (!d) return <Loading label="Loading the labels" lines={3} />;
  const fetchUrl = `/api/v1/prompts/${encodeURIComponent(name)}?label=production`;
  return (
    <>
      <Card title="Labels" padded={false}
        description={<>Applications fetch a version by label: <code class="inline-code">GET {fetchUrl}</code>. <code class="inline-code">latest</code> is always v{d.newest}.</>}>
        {d.labels.length
          ? (
            <TableFrame layout="cards" caption={`Labels of ${name}`} class="labels-table">
              <thead><tr><th scope="col">Label</th><th scope="col">Version</th><th scope="col">Moved</th><th scope="col">Move to</th></tr></thead>
              <tbody>{d.labels.map((row) => <LabelRow key={`${row.label}:${row.version}`} project={project} name={name} row={row} newest={d.newest} onChanged={changed} />)}</tbody>
            </TableFrame>
          )
          : <EmptyState compact icon="record" title="No labels yet"><p>Attach <code class="inline-code">production</code> to the version applications should fetch; move it to deploy another.</p></EmptyState>}
        <div class="card-section">
          <AttachForm project={project} name={name} newest={d.newest} version={version} taken={d.labels.map((l) => l.label)} onChanged={changed} />
        </div>
      </Card>
      <Card title="Label history" padded={false} description="Every move, newest first (at most 200): which version each label named, when, and who moved it">
        {d.history.length
          ? (
            <TableFrame layout="cards" caption={`History of the labels of ${name}`} class="label-history-table">
              <thead><tr><th scope="col">When</th><th scope="col">Label</th><th scope="col">Change</th><th scope="col">By</th></tr></thead>
              <tbody>
                {d.history.map((m, i) => (
                  <tr key={`${m.at}-${m.label}-${i}`}>
                    <td class="card-top nowrap">{formatWhen(Date.parse(m.at))}</td>
                    <td data-label="Label"><code class="inline-code">{m.label}</code></td>
                    <td data-label="Change">{m.previous_version === null ? `attached to v${m.version}` : m.version === null ? `removed from v${m.previous_version}` : `v${m.previous_version} → v${m.version}`}</td>
                    <td data-label="By">{m.actor}</td>
                  </tr>
                ))}
              </tbody>
            </TableFrame>
          )
          : <p class="label-history-empty muted">No label has been attached yet.</p>}
      </Card>
    </>
  );
}
