// The read tokens other instances read this one with: create (the token shown once, to copy), list by hint, revoke.
import { useId, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Table, type Column } from '../../components/table.js';
import { deleteJson, postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { Resource } from '../../data/use-resource.js';
import { formatAgo, formatWhen } from '../../format/time.js';
import { announce } from '../../shell/announcer.js';
import type { FleetReadToken, FleetReadTokenCreated, FleetReadTokenList } from './fleet-api.js';

function Revoke({ token, onRevoked }: { token: FleetReadToken; onRevoked(): void }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<ApiError>();
  if (!asking) return <button type="button" class="button button-secondary button-small" onClick={() => setAsking(true)} aria-label={`Revoke ${token.label}`}>Revoke…</button>;
  return (
    <span class="row-actions" role="group" aria-label={`Revoke ${token.label}?`}>
      <button type="button" class="button button-primary button-small" onClick={async () => {
        try {
          await deleteJson(`/api/fleet/tokens/${encodeURIComponent(token.id)}`, { what: 'the read token' });
          announce(`The read token ${token.label} is revoked.`);
          onRevoked();
        } catch (err) { setError(err as ApiError); }
      }}>Revoke: its instance stops reading</button>
      <button type="button" class="button button-ghost button-small" onClick={() => setAsking(false)}>Keep</button>
      {error && <ErrorState error={error} compact />}
    </span>
  );
}

export function ReadTokensCard({ tokens }: { tokens: Resource<FleetReadTokenList> }) {
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<FleetReadTokenCreated>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const labelId = useId();
  const create = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const made = await postJson<FleetReadTokenCreated>('/api/fleet/tokens', { label: label.trim() || 'another instance' }, { what: 'the read token' });
      setCreated(made);
      setLabel('');
      announce('A read token is created: copy it now, it is shown once.');
      tokens.reload();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const rows = tokens.data?.data ?? [];
  const columns: Column<FleetReadToken>[] = [
    { key: 'label', label: 'For', card: 'top', value: (t) => t.label, render: (t) => <span><strong>{t.label}</strong> <code class="inline-code">{t.hint}</code></span> },
    { key: 'created', label: 'Created', value: (t) => t.created_at, render: (t) => <span title={formatAgo(t.created_at)}>{formatWhen(t.created_at)}</span> },
    { key: 'used', label: 'Last read', value: (t) => t.last_used_at ?? 0, render: (t) => (t.last_used_at ? formatAgo(t.last_used_at) : <span class="muted">never</span>) },
    { key: 'actions', label: 'Actions', sortable: false, value: () => null, render: (t) => <Revoke token={t} onRevoked={tokens.reload} /> },
  ];
  return (
    <Card title="Read tokens" description="Let another Vigil show this machine in its fleet: a token reads this machine's overview and nothing else">
      <form class="fleet-token-form" onSubmit={create} aria-label="Create a read token">
        <div class="field">
          <label class="field-label" for={labelId}>Which instance will use it</label>
          <input id={labelId} class="input" value={label} maxLength={100} placeholder="ops laptop" onInput={(e) => setLabel(e.currentTarget.value)} />
        </div>
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Creating…' : 'Create a read token'}</button>
      </form>
      {error && <ErrorState error={error} compact />}
      {created && (
        <div class="fleet-token-once" role="status">
          <p><strong>Copy this token now: it is shown once.</strong> Only its fingerprint is kept here; paste it into the other instance's Fleet page with this machine's URL.</p>
          <CodeBlock label={`the read token for ${created.label}`} language="token" code={created.token} />
          <button type="button" class="button button-secondary button-small" onClick={() => setCreated(undefined)}>I have copied it</button>
        </div>
      )}
      {tokens.error && <ErrorState error={tokens.error} onRetry={tokens.reload} compact />}
      {tokens.data && rows.length === 0 && !created && (
        <EmptyState compact icon="key" title="No read token yet">Nobody can read this machine's overview until you create a token for them.</EmptyState>
      )}
      {rows.length > 0 && <Table caption="Read tokens" columns={columns} rows={rows} rowKey={(t) => t.id} />}
    </Card>
  );
}
