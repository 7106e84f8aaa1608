// systemd units of the system and of the user Vigil runs as (GET /api/services): state, description and unit file
// state, a search over names and descriptions, and start, stop, restart, enable and disable, each asked first.
// Where systemd does not run the machine the page says so instead of showing an empty table.
import { useEffect, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Segmented } from '../../components/segmented.js';
import { Loading } from '../../components/skeleton.js';
import type { Tone } from '../../components/stat.js';
import { Table, type Column } from '../../components/table.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { offerContext } from '../../shell/assistant/assistant-state.js';
import { here, navigate } from '../../shell/router.js';
import { readText, withParams } from '../../shell/url-state.js';
import { PrivilegeCard } from './privilege-card.js';
import { SearchField } from './search-field.js';
import { useSystemPrivilege } from './system-privilege.js';
import type { UnitList, UnitRow, UnitScope } from './systools-api.js';
import { UnitActions, verbsFor } from './unit-actions.js';

const SCOPES = [
  { value: 'system', label: 'System', description: 'System units' },
  { value: 'user', label: 'My user', description: 'Units of the user Vigil runs as' },
] as const;

export function activeTone(active: string): Tone {
  if (active === 'failed') return 'danger';
  if (active === 'active') return 'success';
  if (active === 'activating' || active === 'deactivating' || active === 'reloading') return 'warning';
  return 'neutral';
}

/** Enabled means at boot for system units and at login for the user's. */
function enabledText(enabled: string | null, scope: UnitScope): string {
  if (enabled === null) return 'no unit file';
  if (enabled === 'enabled') return scope === 'user' ? 'at login' : 'at boot';
  return enabled;
}

export default function ServicesPage() {
  const { path, search } = here.value;
  const scope = (readText(search, 'scope') === 'user' ? 'user' : 'system') as UnitScope;
  const q = readText(search, 'q');
  const list = useResource<UnitList>(`/api/services?scope=${scope}`, 'the services');
  const [changed, setChanged] = useState(0);
  const l = list.data;
  const needle = q.toLowerCase();
  const rows = l ? l.units.filter((u) => !needle || u.unit.toLowerCase().includes(needle) || u.description.toLowerCase().includes(needle)) : [];
  const canAct = scope === 'user' || l?.elevation.system_actions !== 'unavailable';
  // The assistant may be given the failed units (their state, not their logs): a chip the user sees and can remove.
  useEffect(() => {
    const failed = l?.units.filter((u) => u.active === 'failed') ?? [];
    if (!failed.length) return undefined;
    return offerContext([{
      kind: 'unit', title: `Failed ${scope} units (${failed.length})`,
      content: failed.slice(0, 50).map((u) => `${u.unit}: ${u.active} (${u.sub}), load ${u.load}, ${u.enabled ?? 'no unit file state'} - ${u.description}`).join('\n'),
    }]);
  }, [l, scope]);
  const privilege = useSystemPrivilege(scope === 'system' && l?.systemd.running === true && l.elevation.system_actions === 'helper');
  const columns: Column<UnitRow>[] = [
    {
      key: 'unit', label: 'Unit', width: '38%', card: 'top', value: (u) => u.unit,
      render: (u) => <span class="unit-name"><code class="inline-code">{u.unit}</code><span class="muted">{u.description}</span></span>,
    },
    { key: 'active', label: 'State', card: 'lead', value: (u) => u.active, render: (u) => <Badge tone={activeTone(u.active)} title={`load: ${u.load}`}>{u.active === u.sub ? u.active : `${u.active} · ${u.sub}`}</Badge> },
    { key: 'enabled', label: scope === 'user' ? 'Starts' : 'Starts', value: (u) => u.enabled ?? '', render: (u) => enabledText(u.enabled, scope) },
    {
      key: 'actions', label: 'Actions', sortable: false, card: 'main', value: () => '',
      render: (u) => (canAct && u.load !== 'not-found' && u.load !== 'masked'
        ? <UnitActions key={`${u.unit}-${changed}`} unit={u.unit} scope={scope} verbs={verbsFor(u.active, u.enabled)} onDone={() => { setChanged((n) => n + 1); list.reload(); }} onPasswordNeeded={privilege.reload} />
        : <span class="muted">{u.load === 'masked' ? 'masked' : u.load === 'not-found' ? 'no unit file' : 'needs root'}</span>),
    },
  ];
  return (
    <>
      <PageHeader title="Services" subtitle="systemd units: what runs, what starts at boot or login, and start, stop, restart, enable or disable one. Failed system units also count in the health score." />
      {list.error && <ErrorState error={list.error} onRetry={list.reload} />}
      {list.loading && !l && <Card><Loading label="Reading the units" lines={8} /></Card>}
      {l && !l.systemd.running && (
        <Card>
          <EmptyState icon="settings" title="systemd does not run this machine">
            <p>{l.systemd.note}</p>
            <p><a href="/host/scheduled">Scheduled tasks</a> still shows the crontab; the <a href="/host/processes">Processes</a> page shows what runs.</p>
          </EmptyState>
        </Card>
      )}
      {l && l.systemd.running && (
        <>
          <div class="toolbar">
            <Segmented label="Whose units" options={SCOPES} value={scope} onChange={(v) => navigate(path + withParams(search, { scope: v === 'system' ? null : v }), { replace: true })} />
            <SearchField label="Search units" placeholder="Name or description, e.g. ssh" value={q} onApply={(v) => navigate(path + withParams(search, { q: v || null }), { replace: true })} />
          </div>
          {scope === 'system' && l.elevation.note && <p class="field-hint">{l.elevation.note}</p>}
          <PrivilegeCard status={privilege.status} onChange={privilege.set} />
          {l.error ? (
            <Card>
              <EmptyState icon="alert" title={scope === 'user' ? 'No user manager answered' : 'systemctl did not answer'}>
                <p>{l.error}</p>
                {scope === 'user' && <p>A user's units need a running user manager: log in as that user, or run <code class="inline-code">loginctl enable-linger</code> for it.</p>}
              </EmptyState>
            </Card>
          ) : (
            <Card padded={false} title={scope === 'user' ? 'Units of my user' : 'System units'}
              description={l.total > l.units.length ? `The first ${formatInteger(l.units.length)} of ${formatInteger(l.total)} by name` : `${formatInteger(rows.length)} of ${formatInteger(l.total)} services`}>
              <Table caption="systemd units" columns={columns} rows={rows} rowKey={(u) => u.unit} initialSort={{ key: 'unit', direction: 'ascending' }}
                empty={<EmptyState compact icon="search" title={q ? `No unit matches “${q}”` : 'No units'}><p>{q ? 'Search is on names and descriptions, e.g. ssh or cron.' : 'systemctl listed none of this type.'}</p></EmptyState>} />
            </Card>
          )}
        </>
      )}
    </>
  );
}
