// Live connections with their processes (GET /api/connections): a filter and a state in the address, counts by
// state, the busiest remote addresses, and names looked up on request.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { Switch } from '../../components/switch.js';
import { Table, type Column } from '../../components/table.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { here, navigate } from '../../shell/router.js';
import { readText, withParams } from '../../shell/url-state.js';
import { endpoint, type ConnectionList, type ConnectionRow } from './network-api.js';
import { SearchField } from './search-field.js';

const REFRESH_MS = 5000;
const LIMIT = 500;

function columns(names: Record<string, string | null>): Column<ConnectionRow>[] {
  return [
    {
      key: 'remote', label: 'Remote', card: 'top', width: '28%', value: (c) => c.remote_address,
      render: (c) => <span class="proc-name"><code>{endpoint(c.remote_address, c.remote_port)}</code>{names[c.remote_address] && <span class="muted">{names[c.remote_address]}</span>}</span>,
    },
    { key: 'local', label: 'Local', value: (c) => c.local_port, render: (c) => <code>{endpoint(c.local_address, c.local_port)}</code> },
    { key: 'state', label: 'State', card: 'lead', value: (c) => c.state, render: (c) => <Badge tone={c.state === 'ESTABLISHED' ? 'success' : 'neutral'}>{c.protocol.toUpperCase()} {c.state}</Badge> },
    {
      key: 'process', label: 'Process', card: 'main', value: (c) => c.name,
      render: (c) => (c.name === null ? <span class="muted">—</span> : <span title={c.command ?? ''}>{c.name} <span class="muted">{c.pid}</span></span>),
    },
    { key: 'user', label: 'User', value: (c) => c.user },
  ];
}

export function ConnectionsCard() {
  const { path, search } = here.value;
  const params = new URLSearchParams(search);
  const q = readText(search, 'q');
  const state = params.get('state') ?? '';
  const resolve = params.get('resolve') === '1';
  const set = (updates: Record<string, string | null>) => navigate(path + withParams(search, updates), { replace: true });
  const conns = useResource<ConnectionList>(
    `/api/connections?limit=${LIMIT}${q ? `&q=${encodeURIComponent(q)}` : ''}${state ? `&state=${encodeURIComponent(state)}` : ''}${resolve ? '&resolve=1' : ''}`,
    'the connections');
  useWhileVisible(conns.reload, REFRESH_MS);
  const data = conns.data;
  const names = data?.names ?? {};
  return (
    <Card padded={false} title="Connections" description={data ? `${formatInteger(data.connections.length)} shown of ${formatInteger(data.matched)} matching, ${formatInteger(data.total)} in all; refreshed every 5 s` : 'TCP and UDP connections with their processes'}>
      <div class="network-filters">
        <SearchField label="Filter connections" placeholder="Address, port, process or user" value={q} onApply={(v) => set({ q: v || null })} />
        <Switch label="Look up names" description="Reverse lookups of remote addresses: a few at a time, each under a second, kept 10 minutes." checked={resolve} onChange={(v) => set({ resolve: v ? '1' : null })} />
      </div>
      {conns.error && <ErrorState error={conns.error} onRetry={conns.reload} compact />}
      {conns.loading && !data && <Loading label="Reading the connections" lines={6} />}
      {data && (
        <>
          <div class="network-states" role="group" aria-label="Connections by state">
            <button type="button" class={`chip${state === '' ? ' chip-on' : ''}`} aria-pressed={state === ''} onClick={() => set({ state: null })}>All</button>
            {data.states.map((s) => (
              <button type="button" key={s.state} class={`chip${state === s.state ? ' chip-on' : ''}`} aria-pressed={state === s.state} onClick={() => set({ state: state === s.state ? null : s.state })}>
                {s.state} <span class="chip-count">{formatInteger(s.count)}</span>
              </button>
            ))}
          </div>
          {data.busiest.length > 0 && (
            <div class="network-busiest">
              <h3 class="network-subtitle">Busiest remote addresses</h3>
              <ol>
                {data.busiest.map((b) => (
                  <li key={b.address}>
                    <button type="button" class="link-button" onClick={() => set({ q: b.address })}><code>{b.address}</code></button>
                    {names[b.address] && <span class="muted"> {names[b.address]}</span>}
                    <span> · {formatInteger(b.connections)} connection{b.connections === 1 ? '' : 's'}</span>
                    {b.processes.length > 0 && <span class="muted"> · {b.processes.join(', ')}</span>}
                  </li>
                ))}
              </ol>
            </div>
          )}
          <Table caption="Connections" columns={columns(names)} rows={data.connections}
            rowKey={(c) => `${c.protocol}-${c.local_address}-${c.local_port}-${c.remote_address}-${c.remote_port}-${c.state}`}
            empty={q || state
              ? <EmptyState compact icon="search" title="No connection matches">Try part of an address, a port or a process name, or choose All states.</EmptyState>
              : <EmptyState compact icon="host" title="No connections">Nothing talks to this machine over TCP or UDP right now.</EmptyState>} />
        </>
      )}
    </Card>
  );
}
