// Host actions: the audit log's entries for what ran through the privileged helper (package changes, firewall rules,
// SMART checks, captures, signals): who, what, when and how it ended, refusals included (GET /api/audit?action=host).
import { useEffect, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import type { ApiError } from '../../data/api-error.js';
import { getJson } from '../../data/api.js';
import type { AuditEntry, AuditPage } from '../../data/api.gen.js';
import { formatDateTime } from '../../format/time.js';

const PAGE = 100;
/** Every helper run is audited as `host <verb>`. */
const PREFIX = 'host ';

const outcome = (e: AuditEntry): { tone: 'success' | 'warning' | 'danger'; word: string } => {
  if (e.status < 400) return { tone: 'success', word: 'Done' };
  if (e.status === 499) return { tone: 'warning', word: 'Cancelled' };
  if (e.status < 500) return { tone: 'warning', word: 'Refused' };
  return { tone: 'danger', word: e.status === 504 ? 'Timed out' : 'Failed' };
};

const columns: Column<AuditEntry>[] = [
  { key: 'at', label: 'When', card: 'lead', value: (e) => e.at, render: (e) => <time dateTime={new Date(e.at).toISOString()}>{formatDateTime(e.at)}</time> },
  { key: 'actor', label: 'Who', card: 'top', value: (e) => e.actor },
  { key: 'action', label: 'What', card: 'main', value: (e) => e.action, render: (e) => <span><code class="inline-code">{e.action.slice(PREFIX.length)}</code> <span class="audit-target" title={e.target}>{e.target}</span></span> },
  { key: 'status', label: 'Result', value: (e) => e.status, render: (e) => { const o = outcome(e); return <Badge tone={o.tone} title={`HTTP-style status ${e.status}`}>{o.word}</Badge>; } },
  { key: 'detail', label: 'Detail', value: (e) => e.detail },
];

export default function HostActionsPage() {
  const [entries, setEntries] = useState<AuditEntry[]>();
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(false);
  const load = async (before: string | null) => {
    setLoading(true);
    setError(undefined);
    try {
      const q = new URLSearchParams({ limit: String(PAGE), action: PREFIX });
      if (before) q.set('before', before);
      const page = await getJson<AuditPage>(`/api/audit?${q}`, { what: 'the host actions' });
      setEntries((old) => (before ? [...(old ?? []), ...page.entries] : page.entries));
      setNext(page.next);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => { void load(null); }, []);
  return (
    <>
      <PageHeader title="Host actions" subtitle="Everything that ran as root through the privileged helper, and every refusal: who, what, when and how it ended. Kept 180 days with the audit log." />
      {error?.kind === 'forbidden' || error?.kind === 'not_found' ? (
        <EmptyState icon="settings" title={error.kind === 'forbidden' ? 'Only owners and admins read the audit log' : 'No audit log here'}>
          {error.kind === 'forbidden' ? 'Ask an owner of this instance for the admin role on the instance.' : 'The audit log lives in the store; enable a plugin that uses it (privilege does).'}
        </EmptyState>
      ) : (
        <Card title="Actions" padded={false}>
          {loading && !entries && <Loading label="the host actions" lines={4} />}
          {error && <ErrorState error={error} onRetry={() => void load(null)} compact />}
          {entries && (
            <Table caption="Host actions" columns={columns} rows={entries} rowKey={(e) => e.id} initialSort={{ key: 'at', direction: 'descending' }}
              empty={<EmptyState compact title="No host action yet">Package changes, firewall rules, captures and signals appear here when they run.</EmptyState>} />
          )}
          {next && (
            <div class="card-footer-actions">
              <button type="button" class="button button-secondary" disabled={loading} onClick={() => void load(next)}>Load older entries</button>
            </div>
          )}
        </Card>
      )}
    </>
  );
}
