// Firing and recent alert events, each with its delivery per channel (pending, delivered or failed; attempts; the
// last error).
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Segmented } from '../../components/segmented.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import type { Resource } from '../../data/use-resource.js';
import { formatAgo, formatWhen } from '../../format/time.js';
import type { AlertDelivery, AlertEvent, List } from './alerts-api.js';
import { scopeText } from './rule-text.js';

export type EventFilter = 'all' | 'firing' | 'resolved';
/** Events a page shows; the API reads from 0 to 10,000 deep. */
export const EVENTS_PAGE = 50;
const DEEPEST_OFFSET = 10_000;
const FILTERS = [{ value: 'all', label: 'All' }, { value: 'firing', label: 'Firing' }, { value: 'resolved', label: 'Resolved' }] as const;
const DELIVERY_TONE = { pending: 'accent', delivered: 'success', failed: 'danger' } as const;
const SEVERITY_TONE = { info: 'neutral', warning: 'warning', critical: 'danger' } as const;

function Delivery({ event }: { event: AlertEvent }) {
  if (event.suppressed) return <span class="muted">not sent: {event.suppressed === 'cooldown' ? 'in its cooldown' : 'flapping'}</span>;
  if (event.delivery.length === 0) return <span class="muted">no channel</span>;
  const line = (d: AlertDelivery) => `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
  return (
    <ul class="delivery-list">
      {event.delivery.map((d) => (
        <li key={d.channel_id}>
          <code class="inline-code">{d.channel_id}</code> <Badge tone={DELIVERY_TONE[d.state]}>{d.state}</Badge>
          <span class="muted"> {line(d)}</span>
          {d.last_error && <span class="delivery-error">{d.last_error}</span>}
        </li>
      ))}
    </ul>
  );
}

const columns: Column<AlertEvent>[] = [
  {
    key: 'status', label: 'Status', card: 'top', width: '11rem', value: (e) => e.status,
    render: (e) => <span class="event-status"><Badge tone={e.status === 'firing' ? 'danger' : 'success'}>{e.status}</Badge><Badge tone={SEVERITY_TONE[e.severity]}>{e.severity}</Badge></span>,
  },
  {
    key: 'rule', label: 'Alert', card: 'lead', value: (e) => e.rule_name,
    render: (e) => <div><strong>{e.rule_name}</strong><div class="muted">{e.summary}</div><div class="muted small">{e.source} · {scopeText(e.scope)}</div></div>,
  },
  {
    key: 'fired', label: 'Fired', width: '9rem', value: (e) => Date.parse(e.fired_at),
    render: (e) => <span title={formatAgo(Date.parse(e.fired_at))} class="nowrap">{formatWhen(Date.parse(e.fired_at))}</span>,
  },
  {
    key: 'resolved', label: 'Resolved', width: '9rem', value: (e) => (e.resolved_at ? Date.parse(e.resolved_at) : null),
    render: (e, text) => (e.resolved_at ? <span class="nowrap">{formatWhen(Date.parse(e.resolved_at))}</span> : <span class="muted">{text}</span>),
  },
  { key: 'delivery', label: 'Delivery', sortable: false, width: '34%', value: () => null, render: (e) => <Delivery event={e} /> },
];

interface EventsCardProps {
  /** The page's events and one more, when there is an older page. */
  events: Resource<List<AlertEvent>>;
  filter: EventFilter;
  onFilter(f: EventFilter): void;
  offset: number;
  onPage(offset: number): void;
}

export function EventsCard({ events, filter, onFilter, offset, onPage }: EventsCardProps) {
  const fetched = events.data?.data;
  const list = fetched?.slice(0, EVENTS_PAGE);
  const older = (fetched?.length ?? 0) > EVENTS_PAGE && offset + EVENTS_PAGE <= DEEPEST_OFFSET;
  const paged = list && (offset > 0 || older);
  return (
    <Card title="Events" description="Firing and recent alerts, newest first, with each channel's delivery" padded={false}
      actions={<Segmented label="Which events" options={FILTERS} value={filter} onChange={onFilter} />}>
      {events.error && <ErrorState error={events.error} onRetry={events.reload} />}
      {!list && !events.error && <div class="card-body"><Loading label="Loading the events" /></div>}
      {list && (
        <Table caption="Alert events" columns={columns} rows={list} rowKey={(e) => e.id}
          empty={<EmptyState compact title={offset > 0 ? 'No older events' : filter === 'firing' ? 'Nothing is firing' : 'No alert has fired yet'}>
            {offset > 0 ? 'Go back to the newest events.' : filter === 'firing' ? 'Every rule is within its condition.' : 'When a rule\'s condition holds for its window, its event appears here with each channel\'s delivery.'}
          </EmptyState>} />
      )}
      {paged && (
        <nav class="pager" aria-label="Pages of alert events">
          <span class="muted" data-events-page>{list.length ? `Events ${offset + 1}–${offset + list.length}` : 'No events here'}</span>
          <button type="button" class="button button-secondary button-small" disabled={offset === 0} onClick={() => onPage(0)}>Newest</button>
          <button type="button" class="button button-secondary button-small" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - EVENTS_PAGE))}>Newer</button>
          <button type="button" class="button button-secondary button-small" disabled={!older} onClick={() => onPage(offset + EVENTS_PAGE)}>Older</button>
        </nav>
      )}
    </Card>
  );
}
