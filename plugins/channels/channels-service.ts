import {
  CHANNEL_SEVERITIES, httpError, isPermanent, uuidv7, type ChannelDelivery, type ChannelDeliveryRequest, type ChannelMessage,
  type ChannelsService, type ChannelSummary, type ChannelTestResult, type HttpError, type JobQueue,
} from '@vigil/plugin-sdk';
import type { ChannelRegistry } from './channel-registry.js';
import { idempotencyKey, jobKey, type DeliveryJobPayload } from './delivery-job.js';
import type { DeliveryStore } from './delivery-store.js';
import { ChannelsErrors, unknownChannel } from './errors.js';
import type { Channel } from './types.js';

export interface ChannelsServiceDeps {
  registry: ChannelRegistry;
  deliveries: DeliveryStore;
  queue: JobQueue<DeliveryJobPayload>;
  send(channel: Channel, message: ChannelMessage, eventId: string, idempotencyKey: string, test: boolean): Promise<void>;
  changed(delivery: ChannelDelivery): void;
  counted(channelId: string, outcome: 'failed'): void;
}

const MAX_EVENT_ID = 200;
/** The metrics label of deliveries to ids that name no channel. */
const UNKNOWN_LABEL = '(unknown)';
const MAX_CHANNELS = 200;
const MAX_EVENTS_READ = 1000;

const badRequest = (message: string): HttpError => httpError(ChannelsErrors.REQUEST, `channels: ${message}`);

/** A message other plugins send must have the shape every channel renders. */
function checkMessage(message: ChannelMessage): void {
  if (!message || typeof message !== 'object') throw badRequest('message must be an object');
  if (typeof message.title !== 'string' || message.title.trim() === '') throw badRequest('message.title must be a non-empty string');
  if (typeof message.text !== 'string') throw badRequest('message.text must be a string');
  if (!CHANNEL_SEVERITIES.includes(message.severity)) throw badRequest(`message.severity must be one of ${CHANNEL_SEVERITIES.join(', ')}`);
  if (message.html !== undefined && typeof message.html !== 'string') throw badRequest('message.html must be a string');
  if (message.url !== undefined && typeof message.url !== 'string') throw badRequest('message.url must be a string');
}

/** A test message that says which channel it came through. */
export function testMessage(channel: Channel, controlPlaneUrl?: string): ChannelMessage {
  return {
    title: `Vigil test notification: ${channel.name}`,
    text: `This is a test sent from Vigil: the channel "${channel.name}" (${channel.type}) works.`,
    severity: 'info',
    fields: { channel: channel.id, type: channel.type, sent_at: new Date().toISOString() },
    ...(controlPlaneUrl ? { url: `${controlPlaneUrl}/alerts` } : {}),
  };
}

/** The `channels` service: durable deliveries through the queue, their states, and test sends. */
export function createChannelsService(deps: ChannelsServiceDeps, controlPlaneUrl: () => string | undefined): ChannelsService {
  const { registry, deliveries, queue } = deps;
  return {
    async deliver(request: ChannelDeliveryRequest) {
      const { eventId, channels, message } = request;
      if (typeof eventId !== 'string' || eventId === '' || eventId.length > MAX_EVENT_ID) throw badRequest(`eventId must be 1-${MAX_EVENT_ID} characters`);
      checkMessage(message);
      if (channels !== 'all' && (!Array.isArray(channels) || channels.length > MAX_CHANNELS || channels.some((c) => typeof c !== 'string'))) {
        throw badRequest(`channels must be 'all' or at most ${MAX_CHANNELS} channel ids`);
      }
      const ids = channels === 'all' ? await registry.enabledIds() : [...new Set(channels)];
      const known = new Map((await registry.views()).map((v) => [v.id, v.enabled]));
      const refused = new Map<string, string>();
      for (const id of ids) {
        const enabled = known.get(id);
        if (enabled === undefined) refused.set(id, `${ChannelsErrors.UNKNOWN}: no channel has the id "${id}"`);
        else if (!enabled) refused.set(id, `${ChannelsErrors.DISABLED}: channel "${id}" is disabled`);
      }
      const { rows, created } = await deliveries.record(eventId, message, ids, refused);
      // Every pending pair is (re)queued: the dedupe key makes this a no-op while its job is open, and brings back a
      // job lost between an earlier record and its enqueue.
      const pending = rows.filter((r) => r.state === 'pending');
      if (pending.length) {
        await queue.enqueueMany(pending.map((r) => ({ payload: { event_id: r.event_id, channel_id: r.channel_id }, options: { dedupeKey: jobKey(r.event_id, r.channel_id), group: r.channel_id } })));
      }
      for (const row of rows) {
        if (!created.has(row.channel_id)) continue;
        deps.changed(row);
        // Ids that name no channel come from the caller: one label for all of them keeps the series bounded.
        if (row.state === 'failed') deps.counted(known.has(row.channel_id) ? row.channel_id : UNKNOWN_LABEL, 'failed');
      }
      return rows;
    },

    async deliveries(eventIds) {
      if (!Array.isArray(eventIds) || eventIds.length > MAX_EVENTS_READ) throw badRequest(`deliveries takes at most ${MAX_EVENTS_READ} event ids`);
      return eventIds.length ? deliveries.forEvents(eventIds) : [];
    },

    async channels(): Promise<ChannelSummary[]> {
      return (await registry.views()).map((v) => ({ id: v.id, name: v.name, type: v.type, enabled: v.enabled, source: v.source }));
    },

    async test(channelId, message): Promise<ChannelTestResult> {
      const started = performance.now();
      let channel: Channel | undefined;
      try {
        channel = await registry.get(channelId);
      } catch (err) {
        return { channel_id: channelId, ok: false, error: (err as Error).message, retryable: false, duration_ms: elapsed(started) };
      }
      if (!channel) throw unknownChannel(channelId);
      const body = message ?? testMessage(channel, controlPlaneUrl());
      checkMessage(body);
      const eventId = `test-${uuidv7()}`;
      try {
        await deps.send(channel, body, eventId, idempotencyKey(eventId, channelId), true);
        return { channel_id: channelId, ok: true, error: null, retryable: false, duration_ms: elapsed(started) };
      } catch (err) {
        return { channel_id: channelId, ok: false, error: (err as Error).message, retryable: !isPermanent(err), duration_ms: elapsed(started) };
      }
    },
  };
}

const elapsed = (started: number): number => Math.round((performance.now() - started) * 10) / 10;
