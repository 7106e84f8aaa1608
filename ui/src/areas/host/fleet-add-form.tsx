// Adds a machine: a name, the other Vigil's URL and a read token it issued. The token goes to the server once and is
// never shown again (the server keeps it encrypted).
import { useId, useState } from 'preact/hooks';
import { ErrorState } from '../../components/error-state.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { FleetPeer, PeerInput } from './fleet-api.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function AddMachineForm({ onAdded, onCancel }: { onAdded(peer: FleetPeer): void; onCancel(): void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), url: useId(), token: useId() };
  const save = async (e: Event) => {
    e.preventDefault();
    if (!NAME.test(name)) return setProblem('The name is letters, digits, ".", "_" and "-", e.g. web-1.');
    if (!/^https?:\/\/\S+$/.test(url.trim())) return setProblem('The URL is the other Vigil\'s address, e.g. http://web-1.lan:9095.');
    if (token.trim().length < 16) return setProblem('Paste the read token created on the other machine (Host → Fleet → Read tokens).');
    setProblem(undefined);
    setError(undefined);
    setBusy(true);
    try {
      const body: PeerInput = { name, url: url.trim(), token: token.trim() };
      onAdded(await postJson<FleetPeer>('/api/fleet/peers', body, { what: 'the new machine' }));
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="fleet-add" onSubmit={save} noValidate aria-label="Add a machine">
      <div class="field-row">
        <div class="field">
          <label class="field-label" for={ids.name}>Name</label>
          <input id={ids.name} class="input" value={name} placeholder="web-1" autocomplete="off" onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label class="field-label" for={ids.url}>URL of its Vigil</label>
          <input id={ids.url} class="input input-mono" value={url} placeholder="http://web-1.lan:9095" autocomplete="off" inputMode="url" onInput={(e) => setUrl(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label class="field-label" for={ids.token}>Read token</label>
          <input id={ids.token} class="input input-mono" type="password" value={token} placeholder="vfr_…" autocomplete="off" aria-describedby={`${ids.token}-hint`} onInput={(e) => setToken(e.currentTarget.value)} />
          <p class="field-hint" id={`${ids.token}-hint`}>Created on that machine; stored encrypted here and never shown again.</p>
        </div>
      </div>
      {problem && <p class="field-error" role="alert">{problem}</p>}
      {error && <ErrorState error={error} compact />}
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Adding…' : 'Add the machine'}</button>
        <button type="button" class="button button-ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
