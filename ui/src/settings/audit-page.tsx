// Settings → Audit log: sign-ins and every change made through the dashboard API, newest first (docs/security.md,
// "Audit log"). For owners and instance-wide admins.
import { useEffect, useState } from 'preact/hooks';
import { Badge } from '../components/badge.js';
import { Card } from '../components/card.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorState } from '../components/error-state.js';
import { PageHeader } from '../components/page-header.js';
import { Loading } from '../components/skeleton.js';
import { Table, type Column } from '../components/table.js';
import type { ApiError } from '../data/api-error.js';
import { getJson } from '../data/api.js';
import type { AuditEntry, AuditPage as AuditPageBody } from '../data/api.gen.js';
import { formatDateTime } from '../format/time.js';

const PAGE = 100;

const tone = (status: number) => (status < 400 ? 'success' : status === 401 || status === 403 ? 'warning' : 'danger');

const columns: Column<AuditEntry>[] = [
  { key: 'at', label: 'When', value: (e) => e.at, render: (e) => <time dateTime={new Date(e.at).toISOString()}>{formatDateTime(e.at)}</time>, card: 'lead' },
  { key: 'actor', label: 'Who', card: 'top', value: (e) => e.actor },
  { key: 'action', label: 'What', card: 'main', value: (e) => e.action, render: (e) => <code class="inline-code">{e.action}</code> },
  { key: 'target', label: 'Target', value: (e) => e.target, render: (e) => <span class="audit-target" title={e.target}>{e.target}</span> },
  { key: 'project', label: 'Project', value: (e) => e.project },
  { key: 'status', label: 'Result', align: 'end', value: (e) => e.status, render: (e) => <Badge tone={tone(e.status)} title={e.detail ?? undefined}>{e.status}</Badge> },
  { key: 'detail', label: 'Why', value: (e) => e.detail },
];

export default function AuditPage() {
  const [actor, setActor] = useState('');
  const [entries, setEntries] = useState<AuditEntry[]>();
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(false);
  const load = async (before: string | null, filter: string) => {
    setLoading(true);
    setError(undefined);
    try {
      const q = new URLSearchParams({ limit: String(PAGE) });
      if (before) q.set('before', before);
      if (filter.trim()) q.set('actor', filter.trim().toLowerCase() === 'dashboard token' ? 'dashboard token' : filter.trim().toLowerCase());
      const page = await getJson<AuditPageBody>(`/api/audit?${q}`, { what: 'the audit log' });
      setEntries((old) => (before ? [...(old ?? []), ...page.entries] : page.entries));
      setNext(page.next);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => { void load(null, ''); }, []);
  const forbidden = error?.kind === 'forbidden';
  return (
    <>
      <PageHeader title="Audit log" subtitle="Sign-ins, refused sign-ins and every change made through the dashboard or its API: who, what, when and how it ended. Kept 180 days." />
      {forbidden ? (
        <EmptyState icon="settings" title="Only owners and admins read the audit log">Ask an owner of this instance for the admin role on the instance.</EmptyState>
      ) : (
        <Card title="Entries" padded={false}
          actions={(
            <form class="audit-filter" onSubmit={(e) => { e.preventDefault(); void load(null, actor); }}>
              <label class="sr-only" for="audit-actor">Who</label>
              <input id="audit-actor" class="input" type="search" placeholder="Filter by email" value={actor} onInput={(e) => setActor((e.target as HTMLInputElement).value)} />
              <button type="submit" class="button button-secondary">Filter</button>
            </form>
          )}>
          {loading && !entries && <Loading label="the audit log" lines={4} />}
          {error && <ErrorState error={error} onRetry={() => void load(null, actor)} compact />}
          {entries && (
            <Table caption="Audit log" columns={columns} rows={entries} rowKey={(e) => e.id} initialSort={{ key: 'at', direction: 'descending' }}
              empty={<EmptyState compact title={actor ? 'Nothing by this actor' : 'Nothing recorded yet'}>{actor ? 'Clear the filter to see every entry.' : 'Sign-ins and changes appear here as they happen.'}</EmptyState>} />
          )}
          {next && (
            <div class="card-footer-actions">
              <button type="button" class="button button-secondary" disabled={loading} onClick={() => void load(next, actor)}>Load older entries</button>
            </div>
          )}
        </Card>
      )}
    </>
  );
}
