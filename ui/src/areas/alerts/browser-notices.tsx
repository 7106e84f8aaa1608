// Browser notifications of firing alerts while the dashboard is open, for those who opt in: permission is asked only
// when the person clicks to turn them on, the choice is kept in this browser, and the live stream's `alerts.event`
// topic brings each notice (the server tells it as it hands the notice to the channels). The dashboard must be open
// in some tab: this is not a push service.
import { signal } from '@preact/signals';
import { useLive } from '../../data/live.js';
import { navigate } from '../../shell/router.js';

/** Where the opt-in is kept: this browser's choice, not the account's. */
const OPT_IN_KEY = 'vigil.alerts.browser-notifications';
/** The live stream's topic (plugins/alerts/live-events.ts). */
export const ALERTS_TOPIC = 'alerts.event';

export type NoticePermission = NotificationPermission | 'unsupported';

/** The fields of a stream notice the browser shows; the stream's data is the server's `AlertLiveEvent`. */
interface LiveNotice { id: string; kind: string; status: string; rule_name: string; summary: string; severity: string }

const supported = (): boolean => typeof window !== 'undefined' && 'Notification' in window;

function readOptIn(): boolean {
  try {
    return localStorage.getItem(OPT_IN_KEY) === 'on';
  } catch {
    return false;
  }
}

function writeOptIn(on: boolean): void {
  try {
    if (on) localStorage.setItem(OPT_IN_KEY, 'on');
    else localStorage.removeItem(OPT_IN_KEY);
  } catch { /* storage blocked: the choice lasts for this page only */ }
}

export const noticePermission = signal<NoticePermission>(supported() ? Notification.permission : 'unsupported');
/** Whether this browser shows notices: opted in, and allowed. */
export const noticesOn = signal<boolean>(readOptIn() && noticePermission.value === 'granted');

/** Turns notices on: asks the browser's permission (call only from a click, as browsers require) and keeps the choice. */
export async function turnOnBrowserNotices(): Promise<NoticePermission> {
  if (!supported()) return 'unsupported';
  // Answers at once, without a prompt, when the browser has decided already.
  const permission = await Notification.requestPermission();
  noticePermission.value = permission;
  noticesOn.value = permission === 'granted';
  writeOptIn(noticesOn.value);
  return permission;
}

export function turnOffBrowserNotices(): void {
  noticesOn.value = false;
  writeOptIn(false);
}

/** Shows one notice: firing alerts only (a resolved one is good news the page shows); one per event (its id is the tag). */
export function showAlertNotice(data: unknown): void {
  const n = data as Partial<LiveNotice> | null;
  if (!noticesOn.value || !supported() || Notification.permission !== 'granted' || !n?.id || n.kind !== 'firing') return;
  // An event that is over as it fires (a new prompt version) is news, not a state: its name says it.
  const shown = new Notification(`${n.severity === 'critical' ? 'Critical: ' : ''}${n.rule_name ?? 'An alert'}${n.status === 'firing' ? ' is firing' : ''}`, {
    body: n.summary ?? '', tag: `vigil-alert-${n.id}`,
  });
  shown.onclick = () => {
    window.focus();
    navigate('/alerts');
    shown.close();
  };
}

function NoticeListener() {
  useLive(ALERTS_TOPIC, showAlertNotice);
  return null;
}

/** Mounted once in the shell: listens for notices on every page, only while this browser has them on. */
export function BrowserAlertNotices({ enabled }: { enabled: boolean }) {
  return enabled && noticesOn.value ? <NoticeListener /> : null;
}

/** The control on the Alerts page: what the browser allows, and the button that asks. */
export function BrowserNoticesControl() {
  const permission = noticePermission.value;
  if (permission === 'unsupported') return null;
  if (noticesOn.value) {
    return (
      <p class="browser-notices" data-browser-notices="on">
        <span>This browser shows a notification when an alert fires, while Vigil is open in a tab.</span>{' '}
        <button type="button" class="button button-secondary button-small" onClick={turnOffBrowserNotices}>Turn off</button>
      </p>
    );
  }
  if (permission === 'denied') {
    return <p class="browser-notices muted" data-browser-notices="denied">This browser blocks notifications from Vigil: allow them in the site's settings to be told when an alert fires.</p>;
  }
  return (
    <p class="browser-notices" data-browser-notices="off">
      <span>Be told in this browser when an alert fires, while Vigil is open in a tab.</span>{' '}
      <button type="button" class="button button-secondary button-small" onClick={() => { void turnOnBrowserNotices(); }}>Notify me in this browser</button>
    </p>
  );
}
