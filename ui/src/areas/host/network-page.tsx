// Listening ports with their processes (GET /api/net), Stop and Force per row, and the firewall's state. The
// filter and the network-visible toggle live in the address; the list refreshes every 5 s while visible.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { Switch } from '../../components/switch.js';
import { Table, type Column } from '../../components/table.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { here, navigate } from '../../shell/router.js';
import { readText, withParams } from '../../shell/url-state.js';
import { FirewallCard } from './firewall-card.js';
import type { PortList, PortRow } from './network-api.js';
import { NetworkOff, networkOn } from './network-off.js';
import { PortActions } from './port-actions.js';
import { SearchField } from './search-field.js';

const REFRESH_MS = 5000;

function columns(elevated: boolean, reload: () => void): Column<PortRow>[] {
  return [
    {
      key: 'port', label: 'Port', card: 'top', width: '12%', value: (p) => p.port,
      render: (p) => <span class="port-cell"><strong>{p.port}</strong> <span class="muted">{p.protocol.toUpperCase()}{p.family === 6 ? 'v6' : ''}</span></span>,
    },
    {
      key: 'address', label: 'Address', value: (p) => p.address,
      render: (p) => <span class="port-address"><code>{p.address}</code>{p.visible ? <Badge tone="warning" title="Other machines can reach it">network</Badge> : <Badge title="Only this machine can reach it">local</Badge>}</span>,
    },
    {
      key: 'process', label: 'Process', width: '34%', card: 'lead', value: (p) => p.name,
      render: (p) => p.name === null ? <span class="muted" title="No process of this machine's view holds it: another user's (Vigil is not root), one in another namespace, or one that just ended">no process found</span> : (
        <span class="proc-name">
          <strong>{p.name}</strong>
          <code class="proc-command" title={p.command ?? ''}>{p.command}</code>
        </span>
      ),
    },
    { key: 'pid', label: 'PID', align: 'end', value: (p) => p.pid, render: (p) => (p.pid === null ? '—' : p.pids.length > 1 ? <span title={`Held by ${p.pids.join(', ')}`}>{p.pid} +{p.pids.length - 1}</span> : String(p.pid)) },
    { key: 'user', label: 'User', value: (p) => p.user },
    { key: 'actions', label: 'Actions', sortable: false, card: 'main', value: () => null, render: (p) => <PortActions row={p} elevated={elevated} onDone={reload} /> },
  ];
}

export default function HostNetworkPage() {
  const on = networkOn();
  const { path, search } = here.value;
  const q = readText(search, 'q');
  const visible = new URLSearchParams(search).get('visible') === '1';
  const ports = useResource<PortList>(on ? `/api/net?limit=1000${visible ? '&visible=1' : ''}${q ? `&q=${encodeURIComponent(q)}` : ''}` : null, 'the listening ports');
  useWhileVisible(ports.reload, REFRESH_MS);
  const header = <PageHeader title="Network" subtitle="What listens on this machine, who owns it, and the firewall in front of it." />;
  if (!on) return <>{header}<NetworkOff /></>;
  const data = ports.data;
  // Another user's process can be stopped through the helper (sudo or pkexec) once it needs no password.
  const elevated = data?.elevation.via === 'helper' && !data.elevation.password_needed;
  return (
    <>
      {header}
      <div class="stack">
        <FirewallCard />
        <div class="toolbar">
          <SearchField label="Filter ports" placeholder="Port, process, command or user" value={q} onApply={(v) => navigate(path + withParams(search, { q: v || null }), { replace: true })} />
          <div class="network-toggle">
            <Switch label="Network-visible only" description="Hide sockets only this machine can reach (loopback)." checked={visible}
              onChange={(v) => navigate(path + withParams(search, { visible: v ? '1' : null }), { replace: true })} />
          </div>
        </div>
        {ports.error && <ErrorState error={ports.error} onRetry={ports.reload} />}
        {ports.loading && !data && <Card><Loading label="Reading the listening ports" lines={6} /></Card>}
        {data && (
          <Card padded={false} title="Listening ports"
            description={`${formatInteger(data.matched)} of ${formatInteger(data.total)} listening sockets${q ? ` matching “${q}”` : ''}${visible ? ', network-visible only' : ''}; refreshed every 5 s`}>
            {(data.hidden_processes > 0 || data.partial) && (
              <p class="network-note" role="note">
                {data.hidden_processes > 0 && `${formatInteger(data.hidden_processes)} processes of other users could not be looked into, so some sockets show no process; run Vigil as root to see them. `}
                {data.partial && 'The walk of every process stopped at its time budget: some owners are missing.'}
              </p>
            )}
            <Table caption="Listening ports" columns={columns(elevated, ports.reload)} rows={data.ports} rowKey={(p) => `${p.protocol}-${p.inode}-${p.address}-${p.port}`}
              empty={q || visible
                ? <EmptyState compact icon="search" title="No listening port matches">Try a port number, part of a process name, or turn off “Network-visible only”.</EmptyState>
                : <EmptyState compact icon="host" title="Nothing listens">No process listens on a TCP or UDP port of this machine right now.</EmptyState>} />
          </Card>
        )}
      </div>
    </>
  );
}
