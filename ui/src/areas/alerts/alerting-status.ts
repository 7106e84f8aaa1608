// The alerting state the whole dashboard shows (the sidebar's badge on every page, the Alerts page's controls):
// one signal, read from GET /api/alertctl and replaced by the answer of every POST, so the badge follows a change
// at once wherever it was made. The server publishes no stream topic for it, so the badge polls while visible.
import { signal } from '@preact/signals';
import { getJson, postJson } from '../../data/api.js';
import { formatClock } from '../../format/time.js';
import type { AlertctlAction, AlertingState } from './alerts-api.js';

export const alerting = signal<AlertingState | undefined>(undefined);

/** How often the badge asks while the tab is visible: a snooze's end and new firings show within this. */
export const ALERTING_POLL_MS = 30_000;

export async function refreshAlerting(signal?: AbortSignal): Promise<void> {
  alerting.value = await getJson<AlertingState>('/api/alertctl', { signal, what: 'the alerting state' });
}

/** Applies an alertctl action; the answer is the new state. */
export async function alertctl(action: AlertctlAction, minutes?: number): Promise<AlertingState> {
  const next = await postJson<AlertingState>('/api/alertctl', minutes === undefined ? { action } : { action, minutes }, { what: 'the alerting change' });
  alerting.value = next;
  return next;
}

/** The state in a few words, for the badge: `Stopped`, `Snoozed to 14:30`, `2 firing`; undefined when on and calm. */
export function alertingBadge(s: AlertingState | undefined): { text: string; tone: 'warning' | 'danger' | 'neutral'; title: string } | undefined {
  if (!s) return undefined;
  if (s.state === 'stopped') return { text: 'Stopped', tone: 'warning', title: 'Alerting is stopped: no rule fires until it is started' };
  if (s.state === 'snoozed' && s.until) {
    const until = formatClock(Date.parse(s.until));
    return { text: `Snoozed to ${until}`, tone: 'warning', title: `Alerting is snoozed until ${until}: no rule fires until then` };
  }
  if (s.firing > 0) return { text: `${s.firing} firing`, tone: 'danger', title: `${s.firing} alert${s.firing === 1 ? ' is' : 's are'} firing now` };
  return undefined;
}

/** A snooze's length in words: `15 min`, `1 h`, `24 h`. */
export const snoozeLabel = (minutes: number): string => (minutes < 60 ? `${minutes} min` : `${minutes / 60} h`);
