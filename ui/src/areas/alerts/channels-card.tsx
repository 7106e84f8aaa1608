// The channels: add, edit, delete (confirmed), and a test per channel and for all, each result shown in its row.
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Table, type Column } from '../../components/table.js';
import { deleteJson, postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { formatLatency } from '../../format/numbers.js';
import { announce } from '../../shell/announcer.js';
import type { Channel, ChannelTestResult, List } from './alerts-api.js';
import { ChannelForm } from './channel-form.js';
import { ConfirmAction } from './confirm-action.js';

type Tests = Record<string, ChannelTestResult | 'sending'>;

function TestResult({ result }: { result: ChannelTestResult | 'sending' | undefined }) {
  if (!result) return null;
  if (result === 'sending') return <span class="muted" data-test-result="sending">Sending…</span>;
  return result.ok
    ? <span data-test-result="ok"><Badge tone="success">delivered</Badge> <span class="muted">in {formatLatency(result.duration_ms)}</span></span>
    : <span data-test-result="failed"><Badge tone="danger">failed</Badge> <span class="delivery-error">{result.error}{result.retryable ? '' : ' (the receiver refused: fix the settings)'}</span></span>;
}

/** The settings that say where a channel sends (secrets arrive masked). */
function where(c: Channel): string {
  const s = c.settings;
  if (c.type === 'email') return `${(s.to as string[] | undefined)?.join(', ') ?? ''} via ${String(s.host ?? '')}`;
  return typeof s.url === 'string' ? s.url : c.type === 'desktop' ? 'this machine' : '';
}

export function ChannelsCard({ channels, onChanged, startAdding }: { channels: Channel[]; onChanged(): void; startAdding: boolean }) {
  const [editing, setEditing] = useState<Channel | 'new' | undefined>(startAdding ? 'new' : undefined);
  const [tests, setTests] = useState<Tests>({});
  const [error, setError] = useState<ApiError>();
  const test = async (id: string) => {
    setTests((t) => ({ ...t, [id]: 'sending' }));
    try {
      const r = await postJson<ChannelTestResult>(`/api/alerts/channels/${encodeURIComponent(id)}/test`, {}, { what: 'the test notification' });
      setTests((t) => ({ ...t, [id]: r }));
    } catch (err) {
      setTests((t) => ({ ...t, [id]: { channel_id: id, ok: false, error: (err as Error).message, retryable: true, duration_ms: 0 } }));
    }
  };
  const testAll = async () => {
    setError(undefined);
    setTests(Object.fromEntries(channels.filter((c) => c.enabled).map((c) => [c.id, 'sending' as const])));
    try {
      const { data } = await postJson<List<ChannelTestResult>>('/api/alerts/channels/test-all', {}, { what: 'the test notifications' });
      setTests(Object.fromEntries(data.map((r) => [r.channel_id, r])));
      announce(`${data.filter((r) => r.ok).length} of ${data.length} channels delivered the test.`);
    } catch (err) {
      setTests({});
      setError(err as ApiError);
    }
  };
  const saved = (c: Channel) => {
    announce(`The channel ${c.name} is saved.`);
    setEditing(undefined);
    onChanged();
  };
  const columns: Column<Channel>[] = [
    {
      key: 'name', label: 'Channel', card: 'top', value: (c) => c.name,
      render: (c) => <div><strong>{c.name}</strong> <Badge>{c.type}</Badge>{!c.enabled && <> <Badge tone="warning">disabled</Badge></>}{c.source === 'config' && <> <Badge title="Declared in the config file: change it there">config file</Badge></>}<div class="muted small">{c.id}</div></div>,
    },
    {
      key: 'where', label: 'Sends to', value: where,
      render: (c, text) => <span class="channel-where"><code class="inline-code">{text}</code>{c.secrets.length > 0 && <span class="muted small"> secrets set: {c.secrets.join(', ')}</span>}</span>,
    },
    { key: 'test', label: 'Last test', sortable: false, card: 'lead', value: () => null, render: (c) => <TestResult result={tests[c.id]} /> },
    {
      key: 'actions', label: 'Actions', sortable: false, value: () => null,
      render: (c) => (
        <span class="row-actions">
          <button type="button" class="button button-secondary button-small" disabled={tests[c.id] === 'sending'} onClick={() => test(c.id)} aria-label={`Test ${c.name}`}>Test</button>
          {c.source === 'store' && <button type="button" class="button button-secondary button-small" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>Edit</button>}
          {c.source === 'store' && (
            <ConfirmAction small label="Delete…" confirm={`Delete ${c.name}`} question="Rules that name it lose it; its pending deliveries fail."
              run={async () => { await deleteJson(`/api/alerts/channels/${encodeURIComponent(c.id)}`, { what: 'the channel' }); announce(`The channel ${c.name} is deleted.`); onChanged(); }} />
          )}
        </span>
      ),
    },
  ];
  return (
    <Card title="Channels" description="Where notifications go; secrets are stored encrypted and shown masked" padded={channels.length === 0 || editing !== undefined}
      actions={<>
        {channels.length > 0 && <button type="button" class="button button-secondary" onClick={testAll}>Test all</button>}
        <button type="button" class="button button-primary" onClick={() => setEditing('new')}>Add channel</button>
      </>}>
      {editing !== undefined && <ChannelForm key={editing === 'new' ? 'new' : editing.id} channel={editing === 'new' ? undefined : editing} onSaved={saved} onCancel={() => setEditing(undefined)} />}
      {error && <ErrorState error={error} compact />}
      {channels.length === 0 && editing === undefined ? (
        <EmptyState compact icon="alert" title="No channel yet"
          actions={<button type="button" class="button button-primary" onClick={() => setEditing('new')}>Add a channel</button>}>
          Rules fire, but nobody hears of it until there is a channel: a webhook, Slack, Discord, ntfy, email or the desktop.
        </EmptyState>
      ) : channels.length > 0 && <Table caption="Notification channels" columns={columns} rows={channels} rowKey={(c) => c.id} />}
    </Card>
  );
}
