import type { AlertEventView, ChannelDelivery, ChannelsService } from '@vigil/plugin-sdk';
import type { AlertEvent } from './event-store.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Events as the API answers them, each with the delivery state of its firing notice per channel (one read for all). */
export async function eventViews(events: readonly AlertEvent[], channels: ChannelsService | undefined): Promise<AlertEventView[]> {
  const deliveries = new Map<string, ChannelDelivery[]>();
  if (channels && events.length) {
    for (const d of await channels.deliveries(events.map((e) => e.id))) {
      const list = deliveries.get(d.event_id) ?? [];
      list.push(d);
      deliveries.set(d.event_id, list);
    }
  }
  return events.map((e) => ({
    id: e.id, rule_id: e.rule_id, rule_name: e.rule_name, source: e.source, scope: e.scope, severity: e.severity, status: e.status,
    value: e.value, threshold: e.threshold, summary: e.summary, window_ms: e.window_ms, samples: e.samples,
    fired_at: iso(e.fired_at)!, resolved_at: iso(e.resolved_at), suppressed: e.suppressed,
    delivery: (deliveries.get(e.id) ?? []).map((d) => ({ channel_id: d.channel_id, state: d.state, attempts: d.attempts, last_error: d.last_error, updated_at: iso(d.updated_at)! })),
  }));
}
