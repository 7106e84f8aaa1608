// The request editor: method, URL and Send on one line, then the query parameters, headers, body and auth. Values
// may hold {{variables}}: the server fills them from the active environment (secret ones never come here).
import { useId, useState } from 'preact/hooks';
import { Segmented } from '../../../components/segmented.js';
import { METHODS, paramsOf, withParams, type ApiRequest } from './client-api.js';
import { PairsEditor } from './pairs-editor.js';

type Tab = 'params' | 'headers' | 'body' | 'auth';

export interface RequestEditorProps {
  request: ApiRequest;
  busy: boolean;
  onChange(r: ApiRequest): void;
  onSend(): void;
}

export function RequestEditor({ request: r, busy, onChange, onSend }: RequestEditorProps) {
  const id = useId();
  const [tab, setTab] = useState<Tab>('params');
  const set = (change: Partial<ApiRequest>) => onChange({ ...r, ...change });
  const count = (n: number) => (n ? ` (${n})` : '');
  return (
    <div class="ac-editor">
      <form class="ac-line" onSubmit={(e) => { e.preventDefault(); onSend(); }}>
        <label class="sr-only" for={`${id}-method`}>Method</label>
        <select id={`${id}-method`} class="input ac-method" value={r.method} onChange={(e) => set({ method: e.currentTarget.value })}>
          {METHODS.map((m) => <option key={m} value={m}>{m}</option>)}
        </select>
        <label class="sr-only" for={`${id}-url`}>URL</label>
        <input id={`${id}-url`} class="input input-mono ac-url" value={r.url} placeholder="https://api.example.com/items or {{baseUrl}}/items" spellcheck={false}
          autocomplete="off" onInput={(e) => set({ url: e.currentTarget.value })} />
        <button type="submit" class="button button-primary" disabled={busy || !r.url.trim()}>{busy ? 'Sending…' : 'Send'}</button>
      </form>
      <Segmented<Tab> label="Request part" value={tab} onChange={setTab} options={[
        { value: 'params', label: `Params${count(paramsOf(r.url).length)}` },
        { value: 'headers', label: `Headers${count(r.headers.length)}` },
        { value: 'body', label: r.body ? 'Body •' : 'Body' },
        { value: 'auth', label: r.auth.type === 'none' ? 'Auth' : `Auth (${r.auth.type})` },
      ]} />
      <div class="ac-tab">
        {tab === 'params' && <PairsEditor label="Params" namePlaceholder="name" pairs={paramsOf(r.url)} onChange={(p) => set({ url: withParams(r.url, p) })} />}
        {tab === 'headers' && <PairsEditor label="Headers" namePlaceholder="Header-Name" pairs={r.headers} onChange={(headers) => set({ headers })} />}
        {tab === 'body' && (
          <div class="field">
            <label class="field-label" for={`${id}-body`}>Body</label>
            <textarea id={`${id}-body`} class="input textarea input-mono ac-body-input" rows={8} spellcheck={false} value={r.body}
              placeholder={'{"name": "{{user}}"}'} onInput={(e) => set({ body: e.currentTarget.value })} />
            <p class="field-hint">Sent as written; set its Content-Type under Headers.</p>
          </div>
        )}
        {tab === 'auth' && (
          <div class="ac-auth">
            <div class="field">
              <label class="field-label" for={`${id}-auth`}>Type</label>
              <select id={`${id}-auth`} class="input" value={r.auth.type} onChange={(e) => set({ auth: { ...r.auth, type: e.currentTarget.value as ApiRequest['auth']['type'] } })}>
                <option value="none">None</option><option value="bearer">Bearer token</option><option value="basic">Basic (user and password)</option>
              </select>
            </div>
            {r.auth.type === 'bearer' && (
              <div class="field">
                <label class="field-label" for={`${id}-token`}>Token</label>
                <input id={`${id}-token`} class="input input-mono" value={r.auth.token ?? ''} placeholder="{{token}}" autocomplete="off" onInput={(e) => set({ auth: { ...r.auth, token: e.currentTarget.value } })} />
              </div>
            )}
            {r.auth.type === 'basic' && (
              <>
                <div class="field"><label class="field-label" for={`${id}-user`}>User</label>
                  <input id={`${id}-user`} class="input" value={r.auth.username ?? ''} autocomplete="off" onInput={(e) => set({ auth: { ...r.auth, username: e.currentTarget.value } })} /></div>
                <div class="field"><label class="field-label" for={`${id}-pass`}>Password</label>
                  <input id={`${id}-pass`} class="input" value={r.auth.password ?? ''} placeholder="{{password}}" autocomplete="off" onInput={(e) => set({ auth: { ...r.auth, password: e.currentTarget.value } })} /></div>
              </>
            )}
            <p class="field-hint">Saved with the request as written. For a credential, write {'{{name}}'} and make it a secret variable of the environment: those are stored encrypted and used by the server only.</p>
          </div>
        )}
      </div>
    </div>
  );
}
