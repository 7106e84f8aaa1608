// The request inspector's list: governed records, newest first, filtered by status, time, route and labels, paged by
// cursor. The filters and the page are in the URL. The newest page is live: new records appear at its top, and what
// the reader has scrolled to stays in place (AnchoredRows); an older page never moves. Records hold only what the
// policy let through; masked values show as [REDACTED].
import { useEffect, useMemo, useState } from 'preact/hooks';
import { AnchoredRows } from '../../components/anchored-rows.js';
import { Badge, statusTone } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import { countRedacted } from '../../components/json-view.js';
import { PageHeader } from '../../components/page-header.js';
import { Segmented } from '../../components/segmented.js';
import { Loading } from '../../components/skeleton.js';
import { useLive } from '../../data/live.js';
import { throttle } from '../../data/throttle.js';
import { useResource } from '../../data/use-resource.js';
import { formatLatency } from '../../format/numbers.js';
import { formatAgo, formatDateTime } from '../../format/time.js';
import { LiveBadge } from '../../shell/live-badge.js';
import { here, Link, navigate } from '../../shell/router.js';
import type { GatewayRecord, RecordPage } from './gateway-api.js';
import { filterSearch, isExactStatus, pageSearch, readView, recordsPath, type RecordsView } from './records-query.js';

const LIVE_REFRESH_MS = 3000;

const statusOptions = [
  { value: 'all', label: 'All', description: 'Every status' },
  { value: '2xx', label: '2xx', description: 'Successful (2xx)' },
  { value: '4xx', label: '4xx', description: 'Client errors (4xx)' },
  { value: '5xx', label: '5xx', description: 'Server errors (5xx)' },
  { value: '0', label: 'No answer', description: 'The upstream never answered' },
];
const sinceOptions = [
  { value: '15m' as const, label: '15m', description: 'Last 15 minutes' },
  { value: '1h' as const, label: '1h', description: 'Last hour' },
  { value: '24h' as const, label: '24h', description: 'Last 24 hours' },
  { value: '7d' as const, label: '7d', description: 'Last 7 days' },
];

const statusText = (status: number) => (status ? String(status) : 'no answer');

function RecordRow({ r, now, search }: { r: GatewayRecord; now: number; search: string }) {
  const masked = countRedacted(r);
  const route = r.route[r.route.length - 1];
  return (
    <tr data-id={r.id}>
      <td class="nowrap card-main"><span title={formatDateTime(r.time)}>{formatAgo(r.time, now)}</span></td>
      <td class="request-cell card-top">
        <Link href={`/gateway/requests/${encodeURIComponent(r.id)}`} class="request-link">
          <span class="method">{r.method}</span>
          <code class="request-path">{r.path}</code>
        </Link>
      </td>
      <td class="card-lead">
        <Link href={`/gateway/requests${filterSearch(search, 'status', String(r.status))}`} class="filter-link" title={`Only status ${statusText(r.status)}`}>
          <Badge tone={statusTone(r.status)} title={r.error ?? undefined}>{statusText(r.status)}</Badge>
        </Link>
      </td>
      <td class="align-end numeric card-main">{formatLatency(r.duration_ms)}</td>
      <td class="route-cell" data-label="Route">
        {route === undefined ? <code>unmatched</code> : (
          <Link href={`/gateway/requests${filterSearch(search, 'route', route)}`} class="filter-link" title={`Only the route ${route}`}><code>{route}</code></Link>
        )}
      </td>
      <td class="labels-cell">
        {Object.entries(r.labels).filter(([, v]) => v).map(([k, v]) => (
          <Link key={k} href={`/gateway/requests${filterSearch(search, `label.${k}`, v)}`} class="filter-link" title={`Only ${k} ${v}`}>
            <Badge>{k}: {v}</Badge>
          </Link>
        ))}
      </td>
      <td class="align-end numeric card-main" data-label="Masked">{masked ? <span class="masked" title={`${masked} values masked by the policy`}>{masked}</span> : <span class="muted">0</span>}</td>
    </tr>
  );
}

/** An active filter the toolbar has no control for, with a button that removes it. */
function FilterChip({ name, value, onRemove }: { name: string; value: string; onRemove(): void }) {
  return (
    <span class="filter-chip">
      {name} <code>{value}</code>
      <button type="button" class="button button-ghost button-icon button-small" aria-label={`Remove the filter ${name} ${value}`} onClick={onRemove}>
        <Icon name="close" />
      </button>
    </span>
  );
}

function Filters({ view, set }: { view: RecordsView; set(name: string, value: string | null): void }) {
  const exact = isExactStatus(view.status);
  return (
    <div class="toolbar">
      <Segmented label="Status" options={statusOptions} value={exact ? '' : view.status} onChange={(v) => set('status', v)} />
      {exact && <FilterChip name="Status" value={view.status} onRemove={() => set('status', null)} />}
      {view.route && <FilterChip name="Route" value={view.route} onRemove={() => set('route', null)} />}
      {view.labels.map(([name, value]) => <FilterChip key={name} name={name} value={value} onRemove={() => set(`label.${name}`, null)} />)}
    </div>
  );
}

export default function RequestsPage() {
  const { path, search } = here.value;
  const view = readView(search);
  const newest = view.before === null && view.after === null;
  const go = (query: string, options?: { replace?: boolean }) => navigate(path + query, options);
  const setFilter = (name: string, value: string | null) => go(filterSearch(search, name, value));
  const records = useResource<RecordPage>(recordsPath(search), 'the captured requests');
  const page = records.data;

  // Pages up to the newest records are the newest page: shown under its own URL, where it is live.
  useEffect(() => {
    if (view.after && page && page.prev === null) go(pageSearch(search, {}), { replace: true });
  }, [page]);

  // The newest page follows the traffic; an older page stays put and says that newer records arrived.
  const refresh = useMemo(() => throttle(records.reload, LIVE_REFRESH_MS), [records.reload]);
  useEffect(() => () => refresh.cancel(), [refresh]);
  const [arrived, setArrived] = useState(false);
  useEffect(() => setArrived(false), [search]);
  useLive('gateway.record', () => { if (newest) refresh(); else setArrived(true); });

  const turn = (to: { before?: string; after?: string }) => {
    go(pageSearch(search, to));
    window.scrollTo({ top: 0 });
  };
  const filtered = view.status !== 'all' || view.route !== '' || view.labels.length > 0;
  const rows = page?.data ?? [];
  const now = Date.now();

  return (
    <>
      <PageHeader title="Requests" subtitle="Every captured request, newest first, as the policy let it be stored."
        actions={<>
          <LiveBadge />
          <Segmented label="Time" options={sinceOptions} value={view.since} onChange={(v) => setFilter('since', v)} />
        </>} />
      <Filters view={view} set={setFilter} />
      {records.error && <ErrorState error={records.error} onRetry={records.reload} />}
      {records.loading && <Loading label="Loading the captured requests" lines={8} />}
      {page && rows.length === 0 && (
        <Card>
          {!newest ? (
            <EmptyState icon="search" title="Nothing older" compact
              actions={<button type="button" class="button button-secondary" onClick={() => turn({})}>Show the newest</button>}>
              <p>No request in the chosen time is older than this page.</p>
            </EmptyState>
          ) : filtered ? (
            <EmptyState icon="search" title="No request matches" compact
              actions={<Link href="/gateway/requests" class="button button-secondary">Clear the filters</Link>}>
              <p>Nothing captured in the chosen time matches these filters.</p>
            </EmptyState>
          ) : (
            <EmptyState icon="requests" title="Nothing captured yet" compact>
              <p>Requests through the gateway show up here within seconds. The <Link href="/gateway">overview</Link> says how to send the first one.</p>
            </EmptyState>
          )}
        </Card>
      )}
      {page && rows.length > 0 && (
        <Card padded={false}>
          <div class="table-wrap requests-wrap" role="region" aria-label="Captured requests" tabIndex={0}>
            <table class="table table-cards requests-table">
              <caption class="sr-only">Captured requests, newest first. A status, route or label filters the list by it.</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Request</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="align-end">Duration</th>
                  <th scope="col">Route</th>
                  <th scope="col">Labels</th>
                  <th scope="col" class="align-end"><abbr title="Values masked by the policy ([REDACTED])">Masked</abbr></th>
                </tr>
              </thead>
              <AnchoredRows rows={rows}>{rows.map((r) => <RecordRow key={r.id} r={r} now={now} search={search} />)}</AnchoredRows>
            </table>
          </div>
          <nav class="pager" aria-label="Pages of requests">
            <span class="muted">
              {newest ? `The newest ${rows.length}` : `${formatDateTime(rows[0].time)} to ${formatDateTime(rows[rows.length - 1].time)}`}
            </span>
            {arrived && <span class="pager-news" role="status">Newer requests arrived</span>}
            <button type="button" class="button button-secondary button-small" disabled={newest} onClick={() => turn({})}>Newest</button>
            <button type="button" class="button button-secondary button-small" disabled={newest}
              onClick={() => turn(page.prev ? { after: page.prev } : {})}>Newer</button>
            <button type="button" class="button button-secondary button-small" disabled={!page.next}
              onClick={() => turn({ before: page.next! })}>Older</button>
          </nav>
        </Card>
      )}
    </>
  );
}
