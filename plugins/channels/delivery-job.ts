import { createHash } from 'node:crypto';
import { isPermanent, JobDeferral, type ChannelDelivery, type ChannelMessage, type QueuedJob } from '@vigil/plugin-sdk';
import type { DeliveryStore } from './delivery-store.js';
import { ChannelsErrors, refused, settingsError } from './errors.js';
import type { Channel } from './types.js';

/** A job of the delivery queue: ids only; the message is stored once per event. */
export interface DeliveryJobPayload {
  event_id: string;
  channel_id: string;
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'retried';

export interface DeliveryRunnerDeps {
  deliveries: DeliveryStore;
  channel(id: string): Promise<Channel | undefined>;
  /** Sends once; throws a permanent error when retrying cannot help. */
  send(channel: Channel, message: ChannelMessage, eventId: string, idempotencyKey: string): Promise<void>;
  /** The queue's attempts: the last one's failure is final. */
  maxAttempts: number;
  /** How long one run holds a delivery: longer than a send may take, shorter than the queue's job timeout. */
  leaseMs: number;
  changed(delivery: ChannelDelivery): void;
  counted(channelId: string, outcome: DeliveryOutcome): void;
}

/** The key a receiver may dedupe on: the same for every attempt of one (event, channel), and nothing else's. */
export function idempotencyKey(eventId: string, channelId: string): string {
  // JSON, not a separator: an event id may hold any character, and no two pairs may share a key.
  return createHash('sha256').update(JSON.stringify([eventId, channelId])).digest('hex').slice(0, 32);
}

/** The queue's dedupe key of a delivery's job. */
export const jobKey = (eventId: string, channelId: string): string => JSON.stringify([eventId, channelId]);

/**
 * Runs one delivery job: takes the delivery (a settled one is never sent again; one another run holds waits), sends,
 * and records the outcome before the job is marked done. A crash after the receiver accepted and before that record
 * can resend once, with the same idempotency key (webhook `Idempotency-Key`, the mail's Message-ID).
 */
export class DeliveryRunner {
  constructor(private readonly deps: DeliveryRunnerDeps) {}

  async run(job: QueuedJob<DeliveryJobPayload>): Promise<void> {
    const { event_id: eventId, channel_id: channelId } = job.payload;
    const { deps } = this;
    const claim = await deps.deliveries.claim(eventId, channelId, Date.now() + deps.leaseMs);
    if (!claim.taken) {
      // Settled (or gone): done, without sending. Held by another run: come back when its lease ends.
      if (claim.leaseUntil !== undefined) throw new JobDeferral(Math.max(100, claim.leaseUntil - Date.now() + 100), { reason: 'another run of this delivery is sending' });
      return;
    }
    try {
      const channel = await deps.channel(channelId);
      if (!channel) throw refused(ChannelsErrors.UNKNOWN, `channel "${channelId}" was deleted before the notification was sent`);
      if (!channel.enabled) throw refused(ChannelsErrors.DISABLED, `channel "${channelId}" was disabled before the notification was sent`);
      const message = await deps.deliveries.message(eventId);
      if (!message) throw settingsError(`the message of event "${eventId}" is gone (pruned)`);
      await deps.send(channel, message, eventId, idempotencyKey(eventId, channelId));
    } catch (err) {
      const final = isPermanent(err) || job.attempt >= deps.maxAttempts;
      const reason = final && !isPermanent(err) ? `gave up after ${job.attempt} attempts: ${(err as Error).message}` : (err as Error).message;
      const row = await deps.deliveries.settle(eventId, channelId, final ? 'failed' : 'pending', reason);
      if (row) deps.changed(row);
      deps.counted(channelId, final ? 'failed' : 'retried');
      throw err;
    }
    const row = await deps.deliveries.settle(eventId, channelId, 'delivered', null);
    if (row) deps.changed(row);
    deps.counted(channelId, 'delivered');
  }
}
