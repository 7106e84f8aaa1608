import type { Bus } from '@vigil/plugin-sdk';

/** The dashboard's stream topic for stored traces (the traces list and the stats refresh on it). */
export const TRACES_TOPIC = 'llm.trace';

/**
 * Tells open dashboard pages that a batch of a project's traces was stored: one small event per batch, with the
 * project's name and a count, never a trace's content (pages read that from their API, which redacts nothing
 * further because nothing unredacted is stored). Nothing at all while no page listens.
 */
export function announcePersisted(bus: Bus, project: string, stored: number, now = Date.now()): void {
  if (stored <= 0 || !bus.hasSubscribers('ui.event')) return;
  bus.publish('ui.event', { topic: TRACES_TOPIC, data: { project, stored, time: now } });
}
