// The kernel's tunables (/proc/sys, what `sysctl -a` prints), read-only, with a search over names and values
// (GET /api/kernel?q=). Changing one needs root and a sysctl.d file; the page says so rather than offering it.
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { here, navigate } from '../../shell/router.js';
import { readText, withParams } from '../../shell/url-state.js';
import type { TunableList, TunableRow } from './host-api.js';
import { SearchField } from './search-field.js';

/** Rows asked for: the server's most (a desktop has about 1,000 tunables; a search narrows them). */
const LIMIT = 500;

const columns: Column<TunableRow>[] = [
  { key: 'key', label: 'Name', width: '45%', card: 'top', value: (t) => t.key, render: (t) => <code class="sysctl-key">{t.key}</code> },
  { key: 'value', label: 'Value', card: 'main', value: (t) => t.value, render: (t) => <code class="sysctl-value">{t.value}</code> },
];

export default function HostKernelPage() {
  const { path, search } = here.value;
  const q = readText(search, 'q');
  const kernel = useResource<TunableList>(`/api/kernel?limit=${LIMIT}${q ? `&q=${encodeURIComponent(q)}` : ''}`, 'the kernel tunables');
  const k = kernel.data;
  return (
    <>
      <PageHeader title="Kernel" subtitle={<>The tunables of <code class="inline-code">/proc/sys</code>, as <code class="inline-code">sysctl -a</code> prints them. Read-only: change one with a file in <code class="inline-code">/etc/sysctl.d</code>.</>} />
      <div class="toolbar">
        <SearchField label="Search tunables" placeholder="Name or value, e.g. swappiness" value={q} onApply={(v) => navigate(path + withParams(search, { q: v || null }), { replace: true })} />
      </div>
      {kernel.error && <ErrorState error={kernel.error} onRetry={kernel.reload} />}
      {kernel.loading && !k && <Card><Loading label="Reading the tunables" lines={10} /></Card>}
      {k && (
        <Card padded={false} title={q ? `Matching “${q}”` : 'All tunables'}
          description={k.total > k.tunables.length ? `The first ${formatInteger(k.tunables.length)} of ${formatInteger(k.total)} by name: search to find the others` : q ? `${formatInteger(k.total)} matching, by name` : `${formatInteger(k.total)} readable by the user Vigil runs as, by name`}>
          <Table caption="Kernel tunables" columns={columns} rows={k.tunables} rowKey={(t) => t.key} initialSort={{ key: 'key', direction: 'ascending' }}
            empty={<EmptyState compact icon="search" title={`No tunable matches “${q}”`}><p>Search is on names and values, e.g. <code class="inline-code">vm.</code> or <code class="inline-code">tcp</code>.</p></EmptyState>} />
        </Card>
      )}
    </>
  );
}
