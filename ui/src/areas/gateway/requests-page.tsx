// The request inspector's list: governed records, newest first, filtered by status, time, route and labels, paged by
// cursor. The filters and the page are in the URL. The newest page is live: new records appear at its top, and what
// the reader has scrolled to stays in place (AnchoredRows); an older page never moves. Records hold only what the
// policy let through; masked values show as [REDACTED].
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { AnchoredRows } from '../../components/anchored-rows.js';
import { Badge, statusTone } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { FilterChip } from '../../components/filter-chip.js';
import { Icon } from '../../components/icon.js';
import { countRedacted } from '../../components/json-view.js';
import { PageHeader } from '../../components/page-header.js';
import { RecordTime } from '../../components/record-time.js';
import { Segmented } from '../../components/segmented.js';
import { Loading } from '../../components/skeleton.js';
import { TableFrame } from '../../components/table-frame.js';
import { useLive } from '../../data/live.js';
import { throttle } from '../../data/throttle.js';
import { useResource } from '../../data/use-resource.js';
import { formatLatency } from '../../format/numbers.js';
import { formatDateTime } from '../../format/time.js';
import { LiveBadge } from '../../shell/live-badge.js';
import { here, Link, navigate } from '../../shell/router.js';
import type { GatewayRecord, RecordPage } from './gateway-api.js';
import { filterSearch, isExactStatus, isFiltered, MAX_TEXT, METHODS, pageSearch, readView, recordsPath, type RecordsView } from './records-query.js';

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
      <td class="nowrap card-main"><RecordTime ms={r.time} now={now} /></td>
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
          <Link href={`/gateway/requests${filterSearch(search, 'route', route)}`} class="filter-link route-filter" title={`Only the route ${route}`}>
            <code>{route}</code><Icon name="search" class="route-filter-icon" />
          </Link>
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

/** How long typing rests before the text filters apply, in ms: one request per word, not per key. */
const TYPING_MS = 400;

/** A free-text filter that follows the URL and writes to it once typing rests (or on Enter). */
function TextFilter({ label, placeholder, value, maxLength, onApply, icon, class: className }: {
  label: string; placeholder: string; value: string; maxLength?: number; onApply(value: string | null): void; icon?: boolean; class?: string;
}) {
  const [draft, setDraft] = useState(value);
  // The latest value and callback, for a timer set during an earlier render: a stale one would write an old URL.
  const latest = useRef({ value, onApply });
  latest.current = { value, onApply };
  useEffect(() => setDraft(value), [value]);
  const apply = (text: string) => { if (text.trim() !== latest.current.value) latest.current.onApply(text.trim() || null); };
  useEffect(() => {
    if (draft.trim() === value) return undefined;
    const timer = setTimeout(() => apply(draft), TYPING_MS);
    return () => clearTimeout(timer);
  }, [draft, value]);
  return (
    <label class={`filter-field ${className ?? ''}`}>
      {icon && <Icon name="search" />}
      <span class="sr-only">{label}</span>
      <input type="search" value={draft} placeholder={placeholder} maxLength={maxLength} autocomplete="off" spellcheck={false}
        onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)}
        onKeyDown={(e) => { if (e.key === 'Enter') apply(draft); }} />
    </label>
  );
}

function Filters({ view, set }: { view: RecordsView; set(name: string, value: string | null): void }) {
  const exact = isExactStatus(view.status);
  const chips: { param: string; name: string; value: string }[] = [
    ...(view.text ? [{ param: 'q', name: 'Path has', value: view.text }] : []),
    ...(view.method ? [{ param: 'method', name: 'Method', value: view.method }] : []),
    ...(view.tenant ? [{ param: 'tenant', name: 'Tenant', value: view.tenant }] : []),
    ...(exact ? [{ param: 'status', name: 'Status', value: view.status }] : []),
    ...(view.route ? [{ param: 'route', name: 'Route', value: view.route }] : []),
    ...view.labels.map(([name, value]) => ({ param: `label.${name}`, name, value })),
  ];
  return (
    <div class="requests-filters">
      <div class="toolbar">
        <TextFilter label="Path contains" placeholder="Filter by path" value={view.text} maxLength={MAX_TEXT} onApply={(v) => set('q', v)} icon class="filter-text" />
        <label class="filter-select">
          <span class="sr-only">Method</span>
          <select class="input" value={view.method} onChange={(e) => set('method', (e.currentTarget as HTMLSelectElement).value || null)}>
            <option value="">Any method</option>
            {METHODS.map((m) => <option key={m} value={m}>{m}</option>)}
          </select>
        </label>
        <TextFilter label="Tenant" placeholder="Tenant" value={view.tenant} onApply={(v) => set('tenant', v)} class="filter-tenant" />
        <Segmented label="Status" options={statusOptions} value={exact ? '' : view.status} onChange={(v) => set('status', v)} />
      </div>
      {chips.length > 0 && (
        <div class="toolbar filter-chips" role="group" aria-label="Filters in use">
          {chips.map((c) => <FilterChip key={c.param} name={c.name} value={c.value} onRemove={() => set(c.param, null)} />)}
          {chips.length > 1 && <Link href="/gateway/requests" class="button button-ghost button-small">Clear all</Link>}
        </div>
      )}
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
  const filtered = isFiltered(view);
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
          <TableFrame layout="cards" caption="Captured requests" detail="Newest first. A status, route or label filters the list by it"
            class="requests-table" wrapClass="requests-wrap">
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
          </TableFrame>
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
