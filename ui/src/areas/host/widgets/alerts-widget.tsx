// Host alerts: how many fire now, whether alerting is on, and the latest ones (GET /api/monitor?brief=1, without
// the 1,440 samples), every 30 s as perch does.
import { Detail, Figure, Pending } from '../../../home/widget-parts.js';
import type { HostMonitor } from '../../../data/api.gen.js';
import { formatClock } from '../../../format/time.js';
import { usePolled } from '../../../home/shared-poll.js';
import { Link } from '../../../shell/router.js';
import type { WidgetProps } from '../../types.js';

const EVERY_MS = 30_000;

export default function AlertsWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<HostMonitor>('/api/monitor?brief=1', EVERY_MS);
  if (!data) return <Pending error={error} what="host alerts" />;
  const state = data.alerting.state === 'on' ? 'alerting on' : data.alerting.state === 'stopped' ? 'alerting stopped' : 'alerting snoozed';
  const recent = data.recent.slice(0, Math.max(0, size.h * 2 - 1));
  return (
    <>
      <Figure value={data.firing} unit={data.firing === 1 ? 'firing' : 'firing'} tone={data.firing ? 'danger' : 'success'} />
      <Detail>{state} · <Link href="/alerts">all alerts</Link></Detail>
      {recent.length > 0 ? (
        <ul class="widget-list" aria-label="Latest host alerts">
          {recent.map((a) => (
            <li key={a.id}>
              <span title={a.summary}>{a.rule_name}</span>
              <span class={a.status === 'firing' ? 'widget-danger' : ''}>{a.status} {formatClock(Date.parse(a.fired_at))}</span>
            </li>
          ))}
        </ul>
      ) : size.h > 1 && <p class="widget-note">No host alert yet.</p>}
    </>
  );
}
