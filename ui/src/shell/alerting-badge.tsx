// The alerting state on every page: a badge beside the sidebar's Alerts link, and (below 900 px, where the sidebar
// is a drawer) one in the top bar. Shown only when the alerts plugin runs; silent when alerting is on and calm.
import { useEffect } from 'preact/hooks';
import { alerting, alertingBadge, ALERTING_POLL_MS, refreshAlerting } from '../areas/alerts/alerting-status.js';
import { BrowserAlertNotices } from '../areas/alerts/browser-notices.js';
import { useWhileVisible } from '../data/live.js';
import { Link } from './router.js';
import { shellInfo } from './shell-info.js';

const alertsEnabled = (): boolean => shellInfo.value?.plugins.includes('alerts') ?? false;

/** Keeps the alerting state fresh while the tab is visible, and shows opted-in browser notices; mounted once, in the sidebar. */
export function AlertingPoller() {
  const on = alertsEnabled();
  const poll = () => { if (on) refreshAlerting().catch(() => {}); };
  useEffect(poll, [on]);
  useWhileVisible(poll, ALERTING_POLL_MS);
  return <BrowserAlertNotices enabled={on} />;
}

/** The badge itself; `link` makes it lead to the Alerts page (the top bar's). */
export function AlertingBadge({ link }: { link?: boolean }) {
  const badge = alertsEnabled() ? alertingBadge(alerting.value) : undefined;
  if (!badge) return null;
  const body = <span class={`badge badge-${badge.tone} alerting-badge`} title={badge.title} data-alerting-badge>{badge.text}</span>;
  return link ? <Link href="/alerts" class="topbar-alerting" aria-label={`Alerts: ${badge.text}`}>{body}</Link> : body;
}
