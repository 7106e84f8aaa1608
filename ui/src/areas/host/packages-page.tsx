// Installed software (GET /api/installed): the native package manager's packages plus snap and flatpak where they
// are installed, filtered, sorted and capped on the server. Update, Remove, Upgrade all and Refresh run through the
// privileged helper after a confirmation in place, as a job whose output the page follows live (job-panel.tsx).
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Segmented, type SegmentedOption } from '../../components/segmented.js';
import { Loading } from '../../components/skeleton.js';
import { Switch } from '../../components/switch.js';
import { Table, type Column } from '../../components/table.js';
import type { ApiError } from '../../data/api-error.js';
import { postJson } from '../../data/api.js';
import type { InstalledPackage, InstalledPackages, PackageJobStarted, PrivilegeStatus } from '../../data/api.gen.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { here, navigate } from '../../shell/router.js';
import { readChoice, readText, withParams } from '../../shell/url-state.js';
import { formatBytes } from './host-format.js';
import { JobPanel } from './job-panel.js';
import { canAct, PrivilegeCard } from './privilege-card.js';
import { SearchField } from './search-field.js';

type Sort = 'name' | 'size';
const SORTS: SegmentedOption<Sort>[] = [
  { value: 'name', label: 'By name', description: 'A to Z' },
  { value: 'size', label: 'By size', description: 'Largest first' },
];
const MANAGERS = ['apt', 'dnf', 'pacman', 'zypper', 'snap', 'flatpak'] as const;
type Manager = typeof MANAGERS[number];
const MANAGER_LABEL: Record<Manager, string> = { apt: 'apt (dpkg)', dnf: 'dnf', pacman: 'pacman', zypper: 'zypper', snap: 'Snap', flatpak: 'Flatpak' };
/** Rows asked for: the server caps and filters, the page shows what a person reads. */
const LIMIT = 200;

/** What a confirmation asks about before a job starts. */
type Pending = { kind: 'upgrade' | 'remove'; pkg: InstalledPackage } | { kind: 'upgrade-all' | 'refresh' };

function question(p: Pending, manager: Manager, updatable: number): string {
  switch (p.kind) {
    case 'upgrade': return `Update ${p.pkg.name} from ${p.pkg.version} to ${p.pkg.new_version}?`;
    case 'remove': return `Remove ${p.pkg.name} ${p.pkg.version}? Packages that depend on it are removed with it; the output lists them.`;
    case 'upgrade-all': return `Upgrade every ${MANAGER_LABEL[manager]} package with an update (${formatInteger(updatable)})?`;
    case 'refresh': return `Refresh ${MANAGER_LABEL[manager]}'s package lists from its sources (apt-get update)?`;
  }
}

export default function HostPackagesPage() {
  const { path, search } = here.value;
  const q = readText(search, 'q');
  const sort = readChoice<Sort>(search, 'sort', ['name', 'size'], 'name');
  const updatableOnly = new URLSearchParams(search).get('updatable') === '1';
  const mgrParam = new URLSearchParams(search).get('mgr');
  const mgr = (MANAGERS as readonly string[]).includes(mgrParam ?? '') ? mgrParam as Manager : undefined;
  const set = (updates: Record<string, string | null>) => navigate(path + withParams(search, updates, { sort: 'name' }), { replace: true });

  const query = new URLSearchParams({ sort, limit: String(LIMIT) });
  if (q) query.set('q', q);
  if (updatableOnly) query.set('updatable', 'true');
  if (mgr) query.set('mgr', mgr);
  const list = useResource<InstalledPackages>(`/api/installed?${query}`, 'the installed packages');
  const privilegeRead = useResource<PrivilegeStatus>('/api/privilege', 'how actions run');
  const [privilege, setPrivilege] = useState<PrivilegeStatus>();
  const status = privilege ?? privilegeRead.data;

  const [pending, setPending] = useState<Pending>();
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<ApiError>();
  const [job, setJob] = useState<string>();
  const [jobEnded, setJobEnded] = useState(false);
  const data = list.data;
  const manager = (data?.manager ?? 'apt') as Manager;
  const allowed = canAct(status);
  /** One change at a time: the package manager's lock allows no other. */
  const busy = job !== undefined && !jobEnded;

  const start = async (p: Pending) => {
    setStarting(true);
    setStartError(undefined);
    try {
      const body = p.kind === 'upgrade' || p.kind === 'remove' ? { mgr: manager, pkg: p.pkg.name, action: p.kind } : { mgr: manager };
      const route = p.kind === 'upgrade' || p.kind === 'remove' ? '/api/pkginstall' : p.kind === 'upgrade-all' ? '/api/upgradeall' : '/api/pkgrefresh';
      const started = await postJson<PackageJobStarted>(route, body, { what: 'the package change' });
      setJobEnded(false);
      setJob(started.job);
      setPending(undefined);
    } catch (err) {
      setStartError(err as ApiError);
      // The password expired or was never given: show the prompt again.
      if ((err as ApiError).code === 'VIGIL_ERR_PRIVILEGE_PASSWORD_REQUIRED') privilegeRead.reload();
    } finally {
      setStarting(false);
    }
  };

  const columns: Column<InstalledPackage>[] = [
    {
      key: 'name', label: 'Package', width: '40%', card: 'top', value: (p) => p.name,
      render: (p) => <span class="pkg-name"><strong>{p.name}</strong>{p.description && <span class="pkg-description">{p.description}</span>}</span>,
    },
    {
      key: 'version', label: 'Version', card: 'main', value: (p) => p.version,
      render: (p) => <span class="pkg-version"><code>{p.version}</code>{p.new_version && <Badge tone="accent" title="An update is available">→ {p.new_version}</Badge>}</span>,
    },
    { key: 'size', label: 'Size', align: 'end', card: 'lead', value: (p) => p.size_bytes, render: (p) => (p.size_bytes === null ? '—' : formatBytes(p.size_bytes)) },
    {
      key: 'actions', label: 'Actions', align: 'end', sortable: false, value: () => null,
      render: (p) => (
        <span class="pkg-actions">
          {p.new_version && <button type="button" class="button button-secondary button-small" disabled={!allowed || busy} onClick={() => setPending({ kind: 'upgrade', pkg: p })} aria-label={`Update ${p.name}`}>Update</button>}
          <button type="button" class="button button-ghost button-small" disabled={!allowed || busy} onClick={() => setPending({ kind: 'remove', pkg: p })} aria-label={`Remove ${p.name}`}>Remove</button>
        </span>
      ),
    },
  ];

  if (list.error?.kind === 'not_found') {
    return (
      <>
        <PageHeader title="Packages" />
        <EmptyState icon="host" title="The Packages tab is off">
          <p>Add this to the config to list installed software and update or remove it here:</p>
          <CodeBlock label="Config" code="packages: {}   # needs the privileged helper for changes (plugins/privilege)" language="yaml" />
        </EmptyState>
      </>
    );
  }

  return (
    <>
      <PageHeader title="Packages" subtitle="Installed software with its version, size and pending update. Filtering and the row cap are applied on the server; changes run through the privileged helper after you confirm them." />
      <PrivilegeCard status={status} onChange={setPrivilege} />
      {data && data.managers.length === 0 && (
        <EmptyState icon="host" title="No package manager found">Vigil looks for apt, dnf, pacman, zypper, snap and flatpak on its PATH; none is here, so there is nothing to list.</EmptyState>
      )}
      {(!data || data.managers.length > 0) && (
        <>
          <div class="toolbar">
            {data && data.managers.length > 1 && (
              <Segmented label="Package manager" options={data.managers.map((m) => ({ value: m as Manager, label: MANAGER_LABEL[m as Manager] }))} value={manager}
                onChange={(m) => set({ mgr: m === data.native ? null : m })} />
            )}
            <SearchField label="Search packages" placeholder="Name or description" value={q} onApply={(v) => set({ q: v || null })} />
            <Segmented label="Order" options={SORTS} value={sort} onChange={(s) => set({ sort: s })} />
          </div>
          <div class="pkg-controls">
            <Switch label="Only updatable" description={data ? `${formatInteger(data.updatable)} package${data.updatable === 1 ? ' has an update' : 's have updates'}${data.updates_known ? '' : ' (updates unknown)'}` : undefined}
              checked={updatableOnly} onChange={(on) => set({ updatable: on ? '1' : null })} />
            <div class="form-actions">
              <button type="button" class="button button-secondary" disabled={!allowed || busy || !data} onClick={() => setPending({ kind: 'refresh' })}>Refresh lists</button>
              <button type="button" class="button button-primary" disabled={!allowed || busy || !data || data.updatable === 0} onClick={() => setPending({ kind: 'upgrade-all' })}>Upgrade all</button>
            </div>
          </div>
          {pending && (
            <div class="confirm" role="alertdialog" aria-labelledby="pkg-confirm-question">
              <p id="pkg-confirm-question">{question(pending, manager, data?.updatable ?? 0)}</p>
              <div class="form-actions">
                <button type="button" class="button button-primary" disabled={starting} onClick={() => void start(pending)}>{starting ? 'Starting…' : 'Yes, run it'}</button>
                <button type="button" class="button button-ghost" onClick={() => { setPending(undefined); setStartError(undefined); }}>Cancel</button>
              </div>
              {startError && <ErrorState error={startError} compact />}
            </div>
          )}
          {job && (
            <Card title="Live output" actions={jobEnded && <button type="button" class="button button-ghost button-small" onClick={() => setJob(undefined)}>Close</button>}>
              <JobPanel id={job} onEnd={() => { setJobEnded(true); list.reload(); }} />
            </Card>
          )}
          {list.error && <ErrorState error={list.error} onRetry={list.reload} />}
          {list.loading && !data && <Card><Loading label="Reading the installed packages" lines={8} /></Card>}
          {data && (
            <Card padded={false} title={updatableOnly ? 'Packages with updates' : 'Installed packages'}
              description={`${formatInteger(data.rows.length)} shown of ${formatInteger(data.matched)} matching, ${formatInteger(data.total)} installed${data.truncated ? ': narrow the search to see the rest' : ''}`}>
              {data.note && <p class="pkg-note" role="note">{data.note}</p>}
              <Table caption="Installed packages" columns={columns} rows={data.rows} rowKey={(p) => `${p.manager}:${p.name}`}
                empty={<EmptyState compact icon="search" title={updatableOnly && !q ? 'Everything is up to date' : `No package matches “${q}”`}>
                  <p>{updatableOnly ? 'Refresh the lists to look for new versions, or turn off Only updatable.' : 'Search is on the name and the description; try part of a word.'}</p>
                </EmptyState>} />
            </Card>
          )}
        </>
      )}
    </>
  );
}
