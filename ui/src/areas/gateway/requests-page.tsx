// The request inspector's list: governed records, newest first, filtered by status, time and route, live while on
// the first page. Records hold only what the policy let through; masked values show as [REDACTED].
import { useEffect, useMemo } from 'preact/hooks';
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
import { here, Link, navigate, useChoice } from '../../shell/router.js';
import { readText, withParams } from '../../shell/url-state.js';
import type { GatewayRecord, RecordPage } from './gateway-api.js';

const PAGE_SIZE = 50;
const STATUSES = ['all', '2xx', '4xx', '5xx', '0'] as const;
const SINCE = ['15m', '1h', '24h', '7d'] as const;
const LIVE_REFRESH_MS = 3000;

const statusOptions = [
  { value: 'all' as const, label: 'All', description: 'Every status' },
  { value: '2xx' as const, label: '2xx', description: 'Successful (2xx)' },
  { value: '4xx' as const, label: '4xx', description: 'Client errors (4xx)' },
  { value: '5xx' as const, label: '5xx', description: 'Server errors (5xx)' },
  { value: '0' as const, label: 'No answer', description: 'The upstream never answered' },
];
const sinceOptions = [
  { value: '15m' as const, label: '15m', description: 'Last 15 minutes' },
  { value: '1h' as const, label: '1h', description: 'Last hour' },
  { value: '24h' as const, label: '24h', description: 'Last 24 hours' },
  { value: '7d' as const, label: '7d', description: 'Last 7 days' },
];

/** The list's API path for the filters in the URL. */
export function recordsPath(search: string): string {
  const params = new URLSearchParams(search);
  const q = new URLSearchParams();
  const status = params.get('status');
  if (status && status !== 'all') q.set('status', status);
  q.set('since', SINCE.includes(params.get('since') as never) ? params.get('since')! : '24h');
  const route = params.get('route');
  if (route) q.set('route', route);
  const offset = Number(params.get('offset'));
  if (Number.isInteger(offset) && offset > 0) q.set('offset', String(offset));
  q.set('limit', String(PAGE_SIZE));
  return `/api/gateway/records?${q}`;
}

function RecordRow({ r, now }: { r: GatewayRecord; now: number }) {
  const masked = countRedacted(r);
  const href = `/gateway/requests/${encodeURIComponent(r.id)}`;
  return (
    <tr>
      <td class="nowrap"><span title={formatDateTime(r.time)}>{formatAgo(r.time, now)}</span></td>
      <td class="request-cell">
        <Link href={href} class="request-link">
          <span class="method">{r.method}</span>
          <code class="request-path">{r.path}</code>
        </Link>
      </td>
      <td><Badge tone={statusTone(r.status)} title={r.error ?? undefined}>{r.status || 'no answer'}</Badge></td>
      <td class="align-end numeric">{formatLatency(r.duration_ms)}</td>
      <td class="route-cell"><code>{r.route[r.route.length - 1] ?? 'unmatched'}</code></td>
      <td class="labels-cell">{Object.entries(r.labels).filter(([, v]) => v).map(([k, v]) => <Badge key={k}>{k}: {v}</Badge>)}</td>
      <td class="align-end numeric">{masked ? <span class="masked" title={`${masked} values masked by the policy`}>{masked}</span> : <span class="muted">0</span>}</td>
    </tr>
  );
}

export default function RequestsPage() {
  const { path, search } = here.value;
  const [status] = useChoice('status', STATUSES, 'all');
  const [since] = useChoice('since', SINCE, '24h');
  // A new filter starts again from the newest page.
  const filter = (name: string, value: string, fallback: string) =>
    navigate(path + withParams(search, { [name]: value, offset: null }, { [name]: fallback }));
  const setStatus = (v: string) => filter('status', v, 'all');
  const setSince = (v: string) => filter('since', v, '24h');
  const route = readText(search, 'route');
  const offset = Math.max(0, Number(readText(search, 'offset', '0')) || 0);
  const records = useResource<RecordPage>(recordsPath(search), 'the captured requests');

  // The newest page follows the traffic; an older page stays put while you read it.
  const refresh = useMemo(() => throttle(records.reload, LIVE_REFRESH_MS), [records.reload]);
  useEffect(() => () => refresh.cancel(), [refresh]);
  useLive('gateway.record', () => { if (offset === 0) refresh(); });

  const page = (next: number) => navigate(path + withParams(search, { offset: next > 0 ? String(next) : null }));
  const filtered = status !== 'all' || route !== '';
  const rows = records.data?.data ?? [];
  const now = Date.now();

  return (
    <>
      <PageHeader title="Requests" subtitle="Every captured request, newest first, as the policy let it be stored."
        actions={<>
          <LiveBadge />
          <Segmented label="Time" options={sinceOptions} value={since} onChange={setSince} />
        </>} />
      <div class="toolbar">
        <Segmented label="Status" options={statusOptions} value={status} onChange={setStatus} />
        {route && (
          <span class="filter-chip">
            Route <code>{route}</code>
            <button type="button" class="button button-ghost button-icon button-small" aria-label={`Remove the route filter ${route}`}
              onClick={() => navigate(path + withParams(search, { route: null, offset: null }))}>
              <Icon name="close" />
            </button>
          </span>
        )}
      </div>
      {records.error && <ErrorState error={records.error} onRetry={records.reload} />}
      {records.loading && <Loading label="Loading the captured requests" lines={8} />}
      {records.data && rows.length === 0 && (
        <Card>
          {filtered || offset > 0 ? (
            <EmptyState icon="search" title="No request matches" compact
              actions={<Link href="/gateway/requests" class="button button-secondary">Clear the filters</Link>}>
              <p>Nothing captured in the chosen time has this {route ? 'route' : 'status'}.</p>
            </EmptyState>
          ) : (
            <EmptyState icon="requests" title="Nothing captured yet" compact>
              <p>Requests through the gateway show up here within seconds. The <Link href="/gateway">overview</Link> says how to send the first one.</p>
            </EmptyState>
          )}
        </Card>
      )}
      {rows.length > 0 && (
        <Card padded={false}>
          <div class="table-wrap" role="region" aria-label="Captured requests" tabIndex={0}>
            <table class="table requests-table">
              <caption class="sr-only">Captured requests, newest first</caption>
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
              <tbody>{rows.map((r) => <RecordRow key={r.id} r={r} now={now} />)}</tbody>
            </table>
          </div>
          <nav class="pager" aria-label="Pages of requests">
            <span class="muted">{offset + 1}–{offset + rows.length}</span>
            <button type="button" class="button button-secondary button-small" disabled={offset === 0} onClick={() => page(offset - PAGE_SIZE)}>Newer</button>
            <button type="button" class="button button-secondary button-small" disabled={rows.length < PAGE_SIZE} onClick={() => page(offset + PAGE_SIZE)}>Older</button>
          </nav>
        </Card>
      )}
    </>
  );
}
