// Creating a prompt version from the dashboard: a text, an optional JSON config, labels and a commit message. A text
// the template has already (detected in traffic or created before) answers that version: the hash is the version.
import { useId, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import type { ApiError } from '../../data/api-error.js';
import { postJson } from '../../data/api.js';
import { announce } from '../../shell/announcer.js';
import { navigate } from '../../shell/router.js';
import { projectApi, templatePath, type CreatedPrompt } from './llm-api.js';

const LABEL = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

type Problems = Partial<Record<'text' | 'config' | 'labels', string>>;

/** The form's fields read into the create's body, or what is wrong with them. */
function bodyOf(name: string, draft: { text: string; config: string; labels: string; message: string }): { body?: object; problems: Problems } {
  const problems: Problems = {};
  if (!draft.text.trim()) problems.text = 'Write the template\'s text; {{variables}} are filled in by the application.';
  let config: unknown;
  if (draft.config.trim()) {
    try { config = JSON.parse(draft.config); } catch (err) { problems.config = `Not JSON: ${(err as Error).message}`; }
  }
  const labels = draft.labels.split(/[\s,]+/).filter(Boolean);
  const bad = labels.find((l) => !LABEL.test(l) || l === 'latest');
  if (bad) problems.labels = bad === 'latest' ? '"latest" always names the newest version; leave it out.' : `"${bad}" is not a label: lowercase letters, digits, _, - and ., starting with a letter or digit.`;
  if (Object.keys(problems).length) return { problems };
  return {
    problems,
    body: { name, prompt: draft.text, ...(config !== undefined ? { config } : {}), ...(labels.length ? { labels } : {}), ...(draft.message.trim() ? { commit_message: draft.message.trim() } : {}) },
  };
}

/** The create form; `open` starts it unfolded (a template with no version yet). */
export function CreateVersionCard({ project, name, open: startOpen = false, onCreated }: { project: string; name: string; open?: boolean; onCreated(): void }) {
  const id = useId();
  const [open, setOpen] = useState(startOpen);
  const [draft, setDraft] = useState({ text: '', config: '', labels: '', message: '' });
  const [problems, setProblems] = useState<Problems>({});
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof draft) => (e: Event) => setDraft({ ...draft, [key]: (e.currentTarget as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    const { body, problems: found } = bodyOf(name, draft);
    setProblems(found);
    setError(undefined);
    if (!body) return;
    setBusy(true);
    try {
      const r = await postJson<CreatedPrompt>(projectApi(project, '/prompts'), body, { what: 'the new version' });
      announce(r.created ? `Version ${r.prompt.version} of ${name} created.` : `This text is version ${r.prompt.version} already; its labels were updated.`);
      setDraft({ text: '', config: '', labels: '', message: '' });
      setOpen(false);
      onCreated();
      navigate(templatePath(project, name, { version: r.prompt.version, against: r.prompt.version > 1 ? r.prompt.version - 1 : 'none' }));
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  if (!open) {
    return (
      <div class="toolbar">
        <button type="button" class="button button-secondary" onClick={() => setOpen(true)}>New version…</button>
      </div>
    );
  }
  const hint = (key: keyof Problems, text: string) => (problems[key]
    ? <p class="field-error" id={`${id}-${key}-hint`}>{problems[key]}</p>
    : <p class="field-hint" id={`${id}-${key}-hint`}>{text}</p>);
  return (
    <Card title={`New version of ${name}`} class="create-version"
      description="Normalised and hashed like a template seen in traffic: a text it has already answers that version">
      <form class="stack" onSubmit={(e) => void submit(e)} noValidate>
        <div class="field">
          <label class="field-label" for={`${id}-text`}>Text</label>
          <textarea id={`${id}-text`} class="input textarea input-mono" rows={8} spellcheck={false} value={draft.text} onInput={set('text')}
            aria-invalid={problems.text ? 'true' : undefined} aria-describedby={`${id}-text-hint`} />
          {hint('text', 'Variables as {{name}}. Line ends, trailing spaces and outer blank lines do not make a new version.')}
        </div>
        <div class="field-row">
          <div class="field">
            <label class="field-label" for={`${id}-labels`}>Labels (optional)</label>
            <input id={`${id}-labels`} class="input" value={draft.labels} placeholder="staging" autoComplete="off" spellcheck={false} onInput={set('labels')}
              aria-invalid={problems.labels ? 'true' : undefined} aria-describedby={`${id}-labels-hint`} />
            {hint('labels', 'Separated by spaces or commas; each moves here from the version it names.')}
          </div>
          <div class="field">
            <label class="field-label" for={`${id}-message`}>Commit message (optional)</label>
            <input id={`${id}-message`} class="input" value={draft.message} maxLength={1000} onInput={set('message')} />
          </div>
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-config`}>Config (optional JSON)</label>
          <textarea id={`${id}-config`} class="input textarea input-mono" rows={3} spellcheck={false} value={draft.config} placeholder='{ "model": "gpt-4o-mini", "temperature": 0.2 }'
            onInput={set('config')} aria-invalid={problems.config ? 'true' : undefined} aria-describedby={`${id}-config-hint`} />
          {hint('config', 'Returned with the prompt to the application (model, temperature…).')}
        </div>
        {error && <ErrorState error={error} compact />}
        <div class="form-actions">
          <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Creating…' : 'Create version'}</button>
          <button type="button" class="button button-secondary" onClick={() => setOpen(false)}>Cancel</button>
        </div>
      </form>
    </Card>
  );
}
