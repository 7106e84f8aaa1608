// The short form the panel shows while no provider is set (owners), or the note that one must set it (others).
import { useState } from 'preact/hooks';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { AssistantSettings, AssistantSettingsInput } from '../../data/api.gen.js';

type Kind = AssistantSettingsInput['provider'];
const KINDS: { id: Exclude<Kind, 'none'>; label: string; url?: string; model?: string }[] = [
  { id: 'openai', label: 'OpenAI-compatible endpoint', url: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  { id: 'anthropic', label: 'Anthropic API', url: 'https://api.anthropic.com', model: 'claude-sonnet-4-5' },
  { id: 'ollama', label: 'Local model server (Ollama)', url: 'http://127.0.0.1:11434', model: 'llama3.2' },
  { id: 'cli', label: 'Local command (claude -p, llm)' },
];

export function AssistantSetup({ settings, onSaved }: { settings: AssistantSettings; onSaved(s: AssistantSettings): void }) {
  const [kind, setKind] = useState<Exclude<Kind, 'none'>>(settings.provider ?? 'openai');
  const [baseUrl, setBaseUrl] = useState(settings.base_url ?? '');
  const [model, setModel] = useState(settings.model ?? '');
  const [key, setKey] = useState('');
  const [command, setCommand] = useState(settings.command?.join(' ') ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!settings.can_configure) {
    return <p class="assistant-note">No provider is set for the assistant yet. An owner of this instance sets one here (Ctrl+I).</p>;
  }
  const meta = KINDS.find((k) => k.id === kind)!;
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const body: AssistantSettingsInput = kind === 'cli'
      ? { provider: 'cli', command: command.trim().split(/\s+/).filter(Boolean) }
      : { provider: kind, model: model.trim(), ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}), ...(key ? { api_key: key } : {}) };
    try {
      onSaved(await postJson<AssistantSettings>('/api/llmconfig', body, { what: 'the assistant settings' }));
    } catch (err) {
      setError((err as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="assistant-setup" onSubmit={save}>
      <p class="assistant-note">Pick where questions go. Nothing is sent until you ask; secrets that look like keys or tokens are masked first.</p>
      <label class="field">
        <span class="field-label">Provider</span>
        <select class="input" value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value as typeof kind)}>
          {KINDS.map((k) => <option key={k.id} value={k.id}>{k.label}</option>)}
        </select>
      </label>
      {kind === 'cli' ? (
        <label class="field">
          <span class="field-label">Command</span>
          <input class="input" required value={command} placeholder="claude -p" onInput={(e) => setCommand((e.target as HTMLInputElement).value)} />
          <span class="field-hint">Run without a shell; the question goes to its stdin.</span>
        </label>
      ) : (
        <>
          <label class="field">
            <span class="field-label">Base URL</span>
            <input class="input" type="url" value={baseUrl} placeholder={meta.url} onInput={(e) => setBaseUrl((e.target as HTMLInputElement).value)} />
          </label>
          <label class="field">
            <span class="field-label">Model</span>
            <input class="input" required value={model} placeholder={meta.model} onInput={(e) => setModel((e.target as HTMLInputElement).value)} />
          </label>
          {kind !== 'ollama' && (
            <label class="field">
              <span class="field-label">API key</span>
              <input class="input" type="password" autocomplete="off" value={key} placeholder={settings.key_set ? 'key set (leave empty to keep it)' : ''}
                onInput={(e) => setKey((e.target as HTMLInputElement).value)} />
              <span class="field-hint">Stored encrypted on the server; never shown again.</span>
            </label>
          )}
        </>
      )}
      {error && <p class="field-error" role="alert">{error}</p>}
      <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Saving…' : 'Save provider'}</button>
    </form>
  );
}
