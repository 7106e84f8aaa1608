import type { Bus, Logger } from '@vigil/plugin-sdk';
import type { NoticeKind, Notifier } from './engine.js';
import type { AlertEvent } from './event-store.js';

/** The dashboard's stream topic for alert notices: the page refreshes on it, and opted-in browsers notify. */
export const ALERTS_TOPIC = 'alerts.event';

/** What the stream carries of a notice: enough for a browser notification, nothing a page could not read from the API. */
export interface AlertLiveEvent {
  id: string;
  kind: NoticeKind;
  rule_id: string;
  rule_name: string;
  severity: string;
  status: string;
  summary: string;
  fired_at: string;
}

/**
 * Wraps the engine's notifier: each notice it hands to the channels is also told to open dashboard pages (while one
 * listens; nothing at all otherwise). Suppressed events are never notices, so the stream stays as quiet as the
 * channels. Only the process that fired tells its own pages; the pages of other processes see the event at their
 * next refresh.
 */
export function announcingNotifier(inner: Notifier, bus: Bus, event: (id: string) => Promise<AlertEvent | undefined>, log: Logger): Notifier {
  return {
    async notify(kind, eventId) {
      await inner.notify(kind, eventId);
      if (!bus.hasSubscribers('ui.event')) return;
      try {
        const e = await event(eventId);
        if (!e) return;
        const data: AlertLiveEvent = {
          id: e.id, kind, rule_id: e.rule_id, rule_name: e.rule_name, severity: e.severity, status: e.status, summary: e.summary,
          fired_at: new Date(e.fired_at).toISOString(),
        };
        bus.publish('ui.event', { topic: ALERTS_TOPIC, data });
      } catch (err) {
        log.debug('alerts: a notice was not told to the dashboard', { event: eventId, error: err });
      }
    },
  };
}
