// The Alerts page: the alerting state and its controls, the events with their delivery, the rules with an editor
// and its preview, the channels, and the weekly LLM digest's preview and send-now. Rules watch the gateway, the LLM platform and any plugin's sources.
import { useEffect, useState } from 'preact/hooks';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { useLive, useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { here } from '../../shell/router.js';
import { shellInfo } from '../../shell/shell-info.js';
import { alerting, refreshAlerting } from './alerting-status.js';
import { AlertingCard } from './alerting-card.js';
import { ALERTS_TOPIC } from './browser-notices.js';
import type { AlertEvent, AlertRule, AlertSource, Channel, List } from './alerts-api.js';
import { ChannelsCard } from './channels-card.js';
import { DigestCard } from './digest-card.js';
import { EVENTS_PAGE, EventsCard, type EventFilter } from './events-card.js';
import { RuleEditor } from './rule-editor.js';
import { RulesCard } from './rules-card.js';

/** How often the events and rules refresh while the page is visible (rules are evaluated once a minute). */
const REFRESH_MS = 15_000;
const ENABLE_SNIPPET = 'alerts: {}     # rules, evaluated every minute\nchannels: {}   # where notifications go';

function NotEnabled() {
  return (
    <EmptyState icon="alert" title="Alerting is not on" actions={<CodeBlock label="The config that turns alerting on" language="yaml" code={ENABLE_SNIPPET} />}>
      Add these lines to the config file and restart Vigil; alerting needs no outside service.
    </EmptyState>
  );
}

export default function AlertsPage() {
  const enabled = shellInfo.value?.plugins.includes('alerts') ?? false;
  const [filter, setFilter] = useState<EventFilter>('all');
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<AlertRule | 'new' | undefined>();
  const query = new URLSearchParams(here.value.search);
  // One more than a page: whether there is an older page, without a count.
  const events = useResource<List<AlertEvent>>(
    enabled ? `/api/alerts/events?limit=${EVENTS_PAGE + 1}&offset=${offset}${filter === 'all' ? '' : `&status=${filter}`}` : null, 'the alert events');
  const rules = useResource<List<AlertRule>>(enabled ? '/api/alerts/rules' : null, 'the alert rules');
  const sources = useResource<List<AlertSource>>(enabled ? '/api/alerts/sources' : null, 'the alert sources');
  const channels = useResource<List<Channel>>(enabled && shellInfo.value?.plugins.includes('channels') ? '/api/alerts/channels' : null, 'the channels');
  useEffect(() => {
    if (query.get('rule') === 'new') setEditing('new');
  }, [here.value.search]);
  useEffect(() => { if (enabled) refreshAlerting().catch(() => {}); }, [enabled]);
  useWhileVisible(() => {
    if (!enabled || editing) return;
    events.reload();
    rules.reload();
  }, REFRESH_MS);
  // A notice told on the stream: the events (and the firing count) are fresh at once, not at the next refresh.
  useLive(ALERTS_TOPIC, () => {
    if (!enabled) return;
    events.reload();
    refreshAlerting().catch(() => {});
  });
  const reloadAll = () => {
    events.reload();
    rules.reload();
    refreshAlerting().catch(() => {});
  };
  const header = <PageHeader title="Alerts" subtitle="Rules over the gateway's and the LLM platform's data, the channels they notify, and what fired." />;
  if (!enabled) return <>{header}<NotEnabled /></>;
  const failed = rules.error ?? sources.error;
  return (
    <>
      {header}
      <div class="stack alerts-page">
        {alerting.value ? <AlertingCard onBulk={reloadAll} /> : <Loading label="Loading the alerting state" lines={2} />}
        <EventsCard events={events} filter={filter} onFilter={(f) => { setFilter(f); setOffset(0); }} offset={offset} onPage={setOffset} />
        {failed && <ErrorState error={failed} onRetry={() => { rules.reload(); sources.reload(); }} />}
        {editing && sources.data && (
          <RuleEditor key={editing === 'new' ? 'new' : editing.id} rule={editing === 'new' ? undefined : editing} sources={sources.data.data}
            channels={channels.data?.data ?? []} onCancel={() => setEditing(undefined)}
            onSaved={() => { setEditing(undefined); reloadAll(); }} />
        )}
        {rules.data && !editing && <RulesCard rules={rules.data.data} onNew={() => setEditing('new')} onEdit={setEditing} onChanged={reloadAll} />}
        {!rules.data && !failed && <Loading label="Loading the rules" lines={3} />}
        {channels.error && <ErrorState error={channels.error} onRetry={channels.reload} />}
        {channels.data && <ChannelsCard channels={channels.data.data} onChanged={channels.reload} startAdding={query.get('channel') === 'new'} />}
        {shellInfo.value?.plugins.includes('llm') && <DigestCard />}
      </div>
    </>
  );
}
