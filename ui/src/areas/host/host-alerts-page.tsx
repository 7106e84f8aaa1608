// The host's alert rules: the five thresholds, the custom rules and the log watchers. They are rules of the shared
// alert engine (per-rule cooldown, the alerting state, the history and the channels), whose controls are on the
// Alerts page; this page reads GET /api/monitor?brief=1 (no 24-hour samples) and GET /api/logwatch.
import { useEffect, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { formatAgo, formatWhen } from '../../format/time.js';
import { Link } from '../../shell/router.js';
import { shellInfo } from '../../shell/shell-info.js';
import { BuiltinRulesCard } from './builtin-rules-card.js';
import { CustomRulesCard } from './custom-rules-card.js';
import type { MachineCaps, MonitorAnswer, WatcherList } from './host-api.js';
import { LogWatchersCard } from './log-watchers-card.js';

/** Rules are checked once a minute: their state is read as often. */
const REFRESH_MS = 60_000;

function AlertingLine({ monitor }: { monitor: MonitorAnswer }) {
  const { state, until } = monitor.alerting;
  return (
    <div class={`notice host-alerting host-alerting-${state}`} role="status">
      {state === 'on' ? <Badge tone="success">Alerting on</Badge> : <Badge tone="warning">{state === 'stopped' ? 'Alerting stopped' : 'Snoozed'}</Badge>}
      <span>
        {state === 'on' && (monitor.firing ? `${monitor.firing} host ${monitor.firing === 1 ? 'rule is' : 'rules are'} firing now.` : 'No host rule is firing.')}
        {state === 'stopped' && 'No rule fires until alerting is started again; checks and charts go on.'}
        {state === 'snoozed' && until && `No rule fires until ${formatWhen(Date.parse(until))}.`}
        {' '}Channels, snooze and the whole history are on the <Link href="/alerts">Alerts page</Link>.
      </span>
    </div>
  );
}

function RecentAlerts({ monitor }: { monitor: MonitorAnswer }) {
  if (monitor.recent.length === 0) return null;
  return (
    <Card title="Recent host alerts" description="The latest ten; every alert and its deliveries are on the Alerts page">
      <ul class="recent-alerts">
        {monitor.recent.map((e) => (
          <li key={e.id} class="recent-alert">
            <Badge tone={e.status === 'firing' ? 'danger' : 'neutral'}>{e.status === 'firing' ? 'Firing' : 'Resolved'}</Badge>
            <span class="recent-alert-text"><strong>{e.rule_name}</strong> {e.summary}{e.suppressed && <span class="muted"> (not sent: {e.suppressed})</span>}</span>
            <time class="muted" dateTime={e.fired_at} title={formatWhen(Date.parse(e.fired_at))}>{formatAgo(Date.parse(e.fired_at))}</time>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** Host rules are rules of the alerts plugin: without it there is nothing to show but how to turn it on. */
function AlertsOff() {
  const file = shellInfo.value?.config_file;
  return (
    <Card>
      <EmptyState icon="alert" title="Host alerts need the alerts plugin">
        <p>The thresholds, custom rules and log watchers are rules of the shared alert engine, which sends them through your channels. Add these lines to {file ? <code class="inline-code">{file}</code> : 'the config file'} and restart <code class="inline-code">vigil run</code>:</p>
        <CodeBlock label="Alerts config" language="yaml" code={'alerts: {}     # host rules checked once a minute\nchannels: {}   # where notices go: add them on the Alerts page'} />
      </EmptyState>
    </Card>
  );
}

export default function HostAlertsPage() {
  const alertsOn = shellInfo.value?.plugins.includes('alerts') ?? true;
  if (!alertsOn) {
    return (
      <>
        <PageHeader title="Host alerts" subtitle="Thresholds, custom rules and log watchers for this machine." />
        <AlertsOff />
      </>
    );
  }
  return <HostAlerts />;
}

function HostAlerts() {
  const monitor = useResource<MonitorAnswer>('/api/monitor?brief=1', 'the host rules');
  const watchers = useResource<WatcherList>('/api/logwatch', 'the log watchers');
  const caps = useResource<MachineCaps>('/api/caps', 'what this machine has');
  useWhileVisible(monitor.reload, REFRESH_MS);
  // A save answers with the new state; it shows at once, before the next refresh.
  const [saved, setSaved] = useState<MonitorAnswer>();
  const [savedWatchers, setSavedWatchers] = useState<WatcherList>();
  useEffect(() => setSaved(undefined), [monitor.data]);
  useEffect(() => setSavedWatchers(undefined), [watchers.data]);
  const m = saved ?? monitor.data;
  const w = savedWatchers ?? watchers.data;
  return (
    <>
      <PageHeader title="Host alerts" subtitle="Thresholds, custom rules and log watchers for this machine, checked once a minute and sent through the shared channels." />
      {monitor.error && <ErrorState error={monitor.error} onRetry={monitor.reload} />}
      {!m && !monitor.error && <Card><Loading label="Reading the host rules" lines={6} /></Card>}
      {m && (
        <div class="stack">
          <AlertingLine monitor={m} />
          <BuiltinRulesCard monitor={m} caps={caps.data} onSaved={setSaved} />
          <CustomRulesCard rules={m.custom} onSaved={(custom) => setSaved({ ...m, custom })} />
          {w && <LogWatchersCard watchers={w} onSaved={setSavedWatchers} />}
          {watchers.error && !w && <ErrorState error={watchers.error} onRetry={watchers.reload} compact />}
          <RecentAlerts monitor={m} />
        </div>
      )}
    </>
  );
}
