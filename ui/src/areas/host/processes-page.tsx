// The busiest processes, by CPU or by memory, with a search over names and command lines (GET /api/processes). The
// server reads /proc and returns the top rows only; the page refreshes while visible.
import { useMemo } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Segmented, type SegmentedOption } from '../../components/segmented.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { here, navigate } from '../../shell/router.js';
import { readText, withParams } from '../../shell/url-state.js';
import type { ProcessList, ProcessRow } from './host-api.js';
import { formatBytes, formatShare } from './host-format.js';
import { SearchField } from './search-field.js';

type Sort = 'cpu' | 'mem';
const SORT_OPTIONS: SegmentedOption<Sort>[] = [
  { value: 'cpu', label: 'By CPU', description: 'Busiest by CPU' },
  { value: 'mem', label: 'By memory', description: 'Largest by memory' },
];
/** Rows asked for: the top of the list is what a person reads. */
const LIMIT = 50;
/** CPU shares move fast; 5 s keeps the list readable. */
const REFRESH_MS = 5000;

const columns: Column<ProcessRow>[] = [
  {
    key: 'name', label: 'Process', width: '34%', card: 'top', value: (p) => p.name,
    render: (p) => (
      <span class="proc-name">
        <strong>{p.name}</strong>
        <code class="proc-command" title={p.command}>{p.command || `[${p.name}]`}</code>
      </span>
    ),
  },
  { key: 'pid', label: 'PID', align: 'end', value: (p) => p.pid, render: (p) => String(p.pid) },
  { key: 'cpu', label: 'CPU', align: 'end', card: 'lead', value: (p) => p.cpu_percent, render: (p) => <span title="Share of one core: 200% is two cores busy">{formatShare(p.cpu_percent)}</span> },
  { key: 'mem', label: 'Memory', align: 'end', card: 'main', value: (p) => p.rss_bytes, render: (p) => <span title={`${formatShare(p.mem_percent)} of memory`}>{formatBytes(p.rss_bytes)}</span> },
  { key: 'state', label: 'State', value: (p) => p.state },
];

export default function HostProcessesPage() {
  const { path, search } = here.value;
  // CPU is the default, left out of the address.
  const raw = new URLSearchParams(search).get('sort');
  const sort: Sort = raw === 'mem' ? 'mem' : 'cpu';
  const setSort = (next: Sort) => navigate(path + withParams(search, { sort: next }, { sort: 'cpu' }));
  const q = readText(search, 'q');
  const procs = useResource<ProcessList>(`/api/processes?sort=${sort}&limit=${LIMIT}${q ? `&q=${encodeURIComponent(q)}` : ''}`, 'the processes');
  useWhileVisible(procs.reload, REFRESH_MS);
  const rows = procs.data?.processes ?? [];
  const initialSort = useMemo(() => ({ key: sort === 'cpu' ? 'cpu' : 'mem', direction: 'descending' as const }), [sort]);
  return (
    <>
      <PageHeader title="Processes" subtitle="The busiest processes now, refreshed every 5 seconds while you look." />
      <div class="toolbar">
        <SearchField label="Search processes" placeholder="Name or command line" value={q} onApply={(v) => navigate(path + withParams(search, { q: v || null }), { replace: true })} />
        <Segmented label="Order" options={SORT_OPTIONS} value={sort} onChange={setSort} />
      </div>
      {procs.error && <ErrorState error={procs.error} onRetry={procs.reload} />}
      {procs.loading && !procs.data && <Card><Loading label="Reading the processes" lines={8} /></Card>}
      {procs.data && (
        <Card padded={false} title={sort === 'cpu' ? 'Top by CPU' : 'Top by memory'}
          description={`${formatInteger(rows.length)} of ${formatInteger(procs.data.total)} processes${q ? ` matching “${q}”` : ''}; CPU is the share of one core (200% is two) over the last ${Math.max(1, Math.round(procs.data.interval_ms / 1000))} s`}>
          <Table key={sort} caption={sort === 'cpu' ? 'Processes by CPU' : 'Processes by memory'} columns={columns} rows={rows} rowKey={(p) => String(p.pid)} initialSort={initialSort}
            empty={<EmptyState compact icon="search" title={`No process matches “${q}”`}><p>Search is on the name and the command line; try part of a word.</p></EmptyState>} />
        </Card>
      )}
    </>
  );
}
