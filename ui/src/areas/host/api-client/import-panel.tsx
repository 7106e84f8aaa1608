// Import: a Postman v2.1 collection, an Insomnia v4 export, an OpenAPI 3 document (JSON or YAML; what `npx vigil spec`
// prints from the gateway's traffic too) or curl commands, pasted or read from a file. The server reads it (in a
// worker) and the collection is saved at once; the variables it declares become an environment.
import { useId, useState } from 'preact/hooks';
import { Card } from '../../../components/card.js';
import { ErrorState } from '../../../components/error-state.js';
import type { ApiError } from '../../../data/api-error.js';
import { postJson } from '../../../data/api.js';
import type { ApiImportResult } from './client-api.js';

const FORMATS = [['auto', 'Find out'], ['postman', 'Postman v2.1'], ['insomnia', 'Insomnia v4'], ['openapi', 'OpenAPI 3'], ['curl', 'curl commands']] as const;

export function ImportPanel({ onImported, onCancel }: { onImported(r: ApiImportResult): Promise<void>; onCancel(): void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [format, setFormat] = useState<(typeof FORMATS)[number][0]>('auto');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const run = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onImported(await postJson<ApiImportResult>('/api/http/import', { text, format }, { what: 'the import' }));
      setText('');
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Import" description="Paste a collection, an export, an OpenAPI document or curl commands, or open a file. Up to 4 MB.">
      <form class="ac-import" onSubmit={run}>
        <div class="ac-import-row">
          <div class="field">
            <label class="field-label" for={`${id}-format`}>Format</label>
            <select id={`${id}-format`} class="input" value={format} onChange={(e) => setFormat(e.currentTarget.value as typeof format)}>
              {FORMATS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
            </select>
          </div>
          <div class="field">
            <label class="field-label" for={`${id}-file`}>File</label>
            <input id={`${id}-file`} class="input" type="file" accept=".json,.yaml,.yml,.txt,.sh"
              onChange={async (e) => { const f = e.currentTarget.files?.[0]; if (f) setText(await f.text()); }} />
          </div>
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-text`}>Text</label>
          <textarea id={`${id}-text`} class="input textarea input-mono" rows={8} spellcheck={false} value={text} aria-describedby={`${id}-hint`}
            placeholder={"curl 'https://api.example.com/items' -H 'Accept: application/json'"} onInput={(e) => setText(e.currentTarget.value)} />
          <p class="field-hint" id={`${id}-hint`}>From the gateway's traffic: run <code class="inline-code">npx vigil spec</code> and paste the OpenAPI document it prints.</p>
        </div>
        <div class="form-actions">
          <button type="submit" class="button button-primary" disabled={busy || !text.trim()}>{busy ? 'Importing…' : 'Import'}</button>
          <button type="button" class="button button-ghost" onClick={onCancel}>Cancel</button>
        </div>
      </form>
      {error && <ErrorState error={error} compact />}
    </Card>
  );
}
