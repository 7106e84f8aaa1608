// Scheduled tasks: the user's crontab (crontab-card.tsx) and systemd timers with their next and last run (GET
// /api/timers), each startable, stoppable and enabled or disabled after a question. Timers show only where systemd
// runs; the page says so otherwise.
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Segmented } from '../../components/segmented.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { useResource } from '../../data/use-resource.js';
import { formatAgo, formatWhen } from '../../format/time.js';
import { here, navigate } from '../../shell/router.js';
import { readText, withParams } from '../../shell/url-state.js';
import { CrontabCard } from './crontab-card.js';
import type { TimerList, TimerRow, UnitScope } from './systools-api.js';
import { PrivilegeCard } from './privilege-card.js';
import { useSystemPrivilege } from './system-privilege.js';
import { UnitActions, verbsFor } from './unit-actions.js';

const SCOPES = [
  { value: 'system', label: 'System', description: 'System timers' },
  { value: 'user', label: 'My user', description: 'Timers of the user Vigil runs as' },
] as const;

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span class="muted">—</span>;
  const ms = Date.parse(iso);
  return <time dateTime={iso} title={formatAgo(ms)}>{formatWhen(ms)}</time>;
}

function TimersCard({ scope, onScope }: { scope: UnitScope; onScope(s: UnitScope): void }) {
  const timers = useResource<TimerList>(`/api/timers?scope=${scope}`, 'the timers');
  const t = timers.data;
  const privilege = useSystemPrivilege(scope === 'system' && t?.systemd.running === true && t.elevation.system_actions === 'helper');
  if (timers.error) return <ErrorState error={timers.error} onRetry={timers.reload} />;
  if (!t) return <Card><Loading label="Reading the timers" lines={4} /></Card>;
  if (!t.systemd.running) {
    return <Card title="systemd timers"><EmptyState compact icon="settings" title="No timers here"><p>{t.systemd.note}</p></EmptyState></Card>;
  }
  const canAct = scope === 'user' || t.elevation.system_actions !== 'unavailable';
  const columns: Column<TimerRow>[] = [
    { key: 'unit', label: 'Timer', width: '32%', card: 'top', value: (r) => r.unit, render: (r) => <span class="unit-name"><code class="inline-code">{r.unit}</code>{r.activates && <span class="muted">runs {r.activates}</span>}</span> },
    { key: 'next', label: 'Next run', card: 'lead', value: (r) => r.next ?? '', render: (r) => <When iso={r.next} /> },
    { key: 'last', label: 'Last run', value: (r) => r.last ?? '', render: (r) => <When iso={r.last} /> },
    { key: 'enabled', label: 'Starts', value: (r) => r.enabled ?? '', render: (r) => (r.enabled === 'enabled' ? (scope === 'user' ? 'at login' : 'at boot') : r.enabled ?? '—') },
    {
      key: 'actions', label: 'Actions', sortable: false, card: 'main', value: () => '',
      render: (r) => (canAct ? <UnitActions timer unit={r.unit} scope={scope} verbs={verbsFor(r.next ? 'active' : 'inactive', r.enabled, true)} onDone={timers.reload} onPasswordNeeded={privilege.reload} /> : <span class="muted">needs root</span>),
    },
  ];
  return (
    <Card padded={false} title="systemd timers" description={scope === 'user' ? 'Timers of the user Vigil runs as' : 'System timers'}
      actions={<Segmented label="Whose timers" options={SCOPES} value={scope} onChange={onScope} />}>
      {scope === 'system' && t.elevation.note && <p class="field-hint card-body-pad">{t.elevation.note}</p>}
      {privilege.status && <div class="card-body-pad"><PrivilegeCard status={privilege.status} onChange={privilege.set} /></div>}
      {t.error
        ? <EmptyState compact icon="alert" title="systemctl did not answer"><p>{t.error}</p></EmptyState>
        : <Table caption="systemd timers" columns={columns} rows={t.timers} rowKey={(r) => r.unit} initialSort={{ key: 'next', direction: 'ascending' }}
            empty={<EmptyState compact icon="search" title="No timers"><p>Add one with a <code class="inline-code">.timer</code> unit beside its service; it shows here with its next run.</p></EmptyState>} />}
    </Card>
  );
}

export default function ScheduledTasksPage() {
  const { path, search } = here.value;
  const scope = (readText(search, 'timers') === 'user' ? 'user' : 'system') as UnitScope;
  return (
    <>
      <PageHeader title="Scheduled tasks" subtitle="Your crontab, read and written back line for line with each schedule in words, and systemd timers with their next and last run." />
      <div class="stack">
        <CrontabCard startAdding={readText(search, 'add') === '1'} />
        <TimersCard scope={scope} onScope={(v) => navigate(path + withParams(search, { timers: v === 'system' ? null : v }), { replace: true })} />
      </div>
    </>
  );
}
