// Adding or editing a channel: the type's own fields; secrets are typed here and never shown again (the server
// answers with their masks), and on an edit an empty secret keeps the stored one.
import { useId, useState } from 'preact/hooks';
import { ErrorState } from '../../components/error-state.js';
import { postJson, putJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { Channel, ChannelType } from './alerts-api.js';
import { CHANNEL_TYPES, channelSettings, channelValues, fieldsOf, type ChannelField } from './channel-fields.js';

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

function Input({ field, value, stored, onInput }: { field: ChannelField; value: string; stored: boolean; onInput(v: string): void }) {
  const id = useId();
  const hint = stored ? 'Set (hidden). Leave empty to keep it, or type a new one.' : field.hint;
  return (
    <div class="field">
      <label class="field-label" for={id}>{field.label}{field.required ? '' : ' (optional)'}</label>
      {field.kind === 'select' ? (
        <select id={id} class="input" value={value || field.options![0]} onChange={(e) => onInput(e.currentTarget.value)}>
          {field.options!.map((o) => <option key={o} value={o}>{o}</option>)}
        </select>
      ) : (
        // A secret is typed hidden, as a password is; numbers keep a text box with a numeric keyboard.
        <input id={id} class="input" {...(field.secret ? { type: 'password' as const } : { type: 'text' as const })} autocomplete="off"
          inputMode={field.kind === 'number' ? 'numeric' : undefined} placeholder={stored ? '••••••••' : field.placeholder} value={value}
          aria-describedby={hint ? `${id}-hint` : undefined} onInput={(e) => onInput(e.currentTarget.value)} />
      )}
      {hint && <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
    </div>
  );
}

export function ChannelForm({ channel, onSaved, onCancel }: { channel?: Channel; onSaved(c: Channel): void; onCancel(): void }) {
  const [type, setType] = useState<ChannelType>(channel?.type ?? 'webhook');
  const [id, setId] = useState(channel?.id ?? '');
  const [name, setName] = useState(channel?.name ?? '');
  const [values, setValues] = useState<Record<string, string>>(() => (channel ? channelValues(channel.type, channel.settings) : {}));
  const [problem, setProblem] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const idField = useId();
  const typeField = useId();
  const nameField = useId();
  const save = async (e: Event) => {
    e.preventDefault();
    const settings = channelSettings(type, values);
    const missing = fieldsOf(type).find((f) => f.required && settings[f.key] === undefined && !(f.secret && channel?.secrets.includes(f.key)));
    if (!channel && !ID.test(id)) return setProblem('The id is lower case letters, digits, _ and -, e.g. ops-webhook.');
    if (missing) return setProblem(`${missing.label} is needed for a ${type} channel.`);
    setProblem(undefined);
    setBusy(true);
    setError(undefined);
    const body = { type, ...(name.trim() ? { name: name.trim() } : {}), ...settings };
    try {
      onSaved(channel
        ? await putJson<Channel>(`/api/alerts/channels/${encodeURIComponent(channel.id)}`, body, { what: 'the channel' })
        : await postJson<Channel>('/api/alerts/channels', { id, ...body }, { what: 'the new channel' }));
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="channel-form" onSubmit={save} noValidate aria-label={channel ? `Edit the channel ${channel.name}` : 'New channel'}>
      <div class="field-row">
        <div class="field">
          <label class="field-label" for={typeField}>Type</label>
          <select id={typeField} class="input" value={type} disabled={!!channel} onChange={(e) => { setType(e.currentTarget.value as ChannelType); setValues({}); }}>
            {CHANNEL_TYPES.map((t) => <option key={t.type} value={t.type}>{t.label}</option>)}
          </select>
        </div>
        <div class="field">
          <label class="field-label" for={idField}>Id</label>
          <input id={idField} class="input input-mono" value={id} disabled={!!channel} placeholder="ops-webhook" onInput={(e) => setId(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label class="field-label" for={nameField}>Name (optional)</label>
          <input id={nameField} class="input" value={name} placeholder="Default: the id" onInput={(e) => setName(e.currentTarget.value)} />
        </div>
      </div>
      {type === 'desktop' && <p class="field-hint">Desktop notifications use notify-send on the machine Vigil runs on; no setting is needed.</p>}
      <div class="field-row">
        {fieldsOf(type).map((f) => (
          <Input key={`${type}.${f.key}`} field={f} value={values[f.key] ?? ''} stored={!!channel?.secrets.includes(f.key)}
            onInput={(v) => setValues((x) => ({ ...x, [f.key]: v }))} />
        ))}
      </div>
      {problem && <p class="field-error" role="alert">{problem}</p>}
      {error && <ErrorState error={error} compact />}
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Saving…' : channel ? 'Save the channel' : 'Add the channel'}</button>
        <button type="button" class="button button-ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
