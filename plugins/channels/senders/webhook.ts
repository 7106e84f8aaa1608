import { signBody, SIGNATURE_HEADER, TIMESTAMP_HEADER, type ChannelMessage } from '@vigil/plugin-sdk';
import { clip, fieldList, LIMITS, type SendContext, type Sender } from './send-context.js';
import { failUnlessOk, post, targetUrl } from './http-post.js';

/** The JSON body every webhook receives (documented in plugins/channels/README.md). */
export interface WebhookPayload {
  type: 'vigil.notification';
  version: 1;
  /** The same on every attempt of this (event, channel): drop a second request that carries one you have seen. */
  idempotency_key: string;
  event_id: string;
  channel_id: string;
  test: boolean;
  /** ISO 8601: when this attempt was made. */
  sent_at: string;
  title: string;
  text: string;
  severity: ChannelMessage['severity'];
  url: string | null;
  fields: { name: string; value: string }[];
}

/** Headers Vigil sets itself: a channel's `headers` cannot replace them. */
const RESERVED = new Set(['content-type', 'content-length', 'host', 'idempotency-key', 'user-agent', SIGNATURE_HEADER, TIMESTAMP_HEADER]);

export function webhookPayload(channelId: string, message: ChannelMessage, context: Pick<SendContext, 'eventId' | 'idempotencyKey' | 'test'>, now = new Date()): WebhookPayload {
  return {
    type: 'vigil.notification', version: 1, idempotency_key: context.idempotencyKey, event_id: context.eventId, channel_id: channelId,
    test: context.test, sent_at: now.toISOString(), title: clip(message.title, LIMITS.title), text: clip(message.text, LIMITS.text),
    severity: message.severity, url: message.url ?? null, fields: fieldList(message),
  };
}

/**
 * POSTs the payload with `X-Vigil-Timestamp` (Unix seconds) and, with a secret, `X-Vigil-Signature: sha256=<hex>`,
 * the HMAC-SHA256 of the timestamp, a dot and the exact body bytes: a receiver verifies it and refuses a timestamp
 * older than its tolerance, so a captured request cannot be replayed.
 */
export const sendWebhook: Sender = async (channel, message, context) => {
  const what = `webhook channel "${channel.id}"`;
  const url = targetUrl(channel.url, what);
  const body = Buffer.from(JSON.stringify(webhookPayload(channel.id, message, context)), 'utf8');
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(channel.headers ?? {})) if (!RESERVED.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  Object.assign(headers, {
    'content-type': 'application/json',
    'user-agent': 'vigil-channels',
    'idempotency-key': context.idempotencyKey,
    [TIMESTAMP_HEADER]: timestamp,
  });
  if (channel.secret) headers[SIGNATURE_HEADER] = signBody(channel.secret, timestamp, body);
  failUnlessOk(await post(url, body, headers, what, context), what);
};
