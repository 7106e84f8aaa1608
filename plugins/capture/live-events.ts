import type { Bus } from '@vigil/plugin-sdk';

/** The dashboard's stream topic for stored records (the overview and the inspector refresh on it). */
export const RECORDS_TOPIC = 'gateway.record';

/**
 * Tells open dashboard pages that a batch of records was stored: one small event per batch, not per record (the
 * pages read the figures again, throttled), and nothing at all while no page listens.
 */
export function announceStored(bus: Bus, stored: number, now = Date.now()): void {
  if (stored <= 0 || !bus.hasSubscribers('ui.event')) return;
  bus.publish('ui.event', { topic: RECORDS_TOPIC, data: { stored, time: now } });
}
