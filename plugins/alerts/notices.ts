import type { ChannelMessage, ChannelsService, JobQueue, Jobs, Logger } from '@vigil/plugin-sdk';
import type { NoticeKind, Notifier } from './engine.js';
import type { AlertEvent, EventStore } from './event-store.js';
import { fmt } from './conditions.js';
import { describeWindow } from './wording.js';

interface NoticeJob {
  kind: NoticeKind;
  event_id: string;
}

const TITLES: Record<NoticeKind, string> = { firing: 'Firing', resolved: 'Resolved', flapping: 'Flapping', settled: 'Still firing' };

/** The message of a notice: the event's summary with its facts, and a link to the Alerts page. */
export function noticeMessage(kind: NoticeKind, e: AlertEvent, dashboardUrl: string): ChannelMessage {
  const text = kind === 'flapping'
    ? `${e.rule_name} fires and resolves too often; it is marked flapping and notifies again once it has settled for an hour.`
    : kind === 'resolved' ? `${e.rule_name} no longer breaches.` : e.summary;
  return {
    title: `[${TITLES[kind]}] ${e.rule_name}`,
    text,
    severity: kind === 'resolved' ? 'info' : e.severity,
    url: `${dashboardUrl.replace(/\/$/, '')}/alerts?event=${encodeURIComponent(e.id)}`,
    fields: {
      rule: e.rule_name, source: e.source, ...Object.fromEntries(Object.entries(e.scope).map(([k, v]) => [k, v as string | number])),
      value: e.value === null ? null : fmt(e.value), threshold: e.threshold === null ? null : fmt(e.threshold),
      window: describeWindow(e.window_ms), samples: e.samples, fired_at: new Date(e.fired_at).toISOString(),
      ...(e.resolved_at !== null && kind === 'resolved' ? { resolved_at: new Date(e.resolved_at).toISOString() } : {}),
    },
  };
}

/** The id the channels key a notice's deliveries by: the event's own for its firing, `<event>:<kind>` otherwise. */
export const noticeId = (kind: NoticeKind, eventId: string): string => (kind === 'firing' ? eventId : `${eventId}:${kind}`);

/**
 * Notices go through a durable queue (`alerts.notices`, deduplicated per notice) to the channels' `deliver`, which is
 * idempotent per (notice, channel): a process killed after storing an event and before the channels had it leaves a
 * job (or an event not handed over, which the next tick queues again), and a job run twice sends nothing twice.
 */
export class QueuedNotifier implements Notifier {
  private readonly queue: JobQueue<NoticeJob>;

  constructor(jobs: Jobs, private readonly events: EventStore, private readonly channels: () => ChannelsService | undefined,
    private readonly dashboardUrl: () => string, private readonly log: Logger) {
    this.queue = jobs.queue<NoticeJob>('notices', (job) => this.send(job.payload), { concurrency: 4, timeoutMs: 60_000 });
  }

  async notify(kind: NoticeKind, eventId: string): Promise<void> {
    await this.queue.enqueue({ kind, event_id: eventId }, { dedupeKey: noticeId(kind, eventId) });
  }

  private async send(job: NoticeJob): Promise<void> {
    const event = await this.events.get(job.event_id);
    if (!event) return; // The history was cleared meanwhile.
    const channels = this.channels();
    if (!channels) {
      this.log.warn('an alert fired with no channels plugin to send it: add a `channels` section', { event: event.id });
    } else {
      await channels.deliver({ eventId: noticeId(job.kind, event.id), channels: event.channels, message: noticeMessage(job.kind, event, this.dashboardUrl()) });
    }
    if (job.kind === 'firing') await this.events.markHandedOver(event.id);
  }
}
