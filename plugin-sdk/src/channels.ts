/**
 * The outbound channels (the `channels` plugin): one message shape every channel renders, and the durable delivery
 * of a message to channels, with a state per (event, channel) that callers record on their events.
 */

/** How urgent a message is. Each channel maps it to its own scale: ntfy's priority, a colour, desktop urgency. */
export type ChannelSeverity = 'info' | 'warning' | 'critical';

export const CHANNEL_SEVERITIES: readonly ChannelSeverity[] = ['info', 'warning', 'critical'];

/** One notification, as the caller means it; each channel renders it in its own format (and escapes it there). */
export interface ChannelMessage {
  /** One line of plain text: the subject of a mail, the title of a push. At most 256 characters are sent. */
  title: string;
  /** Plain text, a few lines. At most 4,000 characters are sent (Discord's and Slack's limits are near that). */
  text: string;
  /** The mail's HTML body; without it the mail's HTML is the text, escaped, and the fields as a table. */
  html?: string;
  severity: ChannelSeverity;
  /** A link to the event in the dashboard. */
  url?: string;
  /** Facts shown beside the text (rule, value, threshold, window), in order. At most 25 are sent. */
  fields?: Record<string, string | number | boolean | null>;
}

/** `pending` until one send succeeds (`delivered`) or retrying cannot help or has run out (`failed`). */
export type ChannelDeliveryState = 'pending' | 'delivered' | 'failed';

/** The delivery of one event to one channel. */
export interface ChannelDelivery {
  event_id: string;
  channel_id: string;
  state: ChannelDeliveryState;
  /** Sends tried so far. */
  attempts: number;
  /** Why the last attempt failed (never a secret); null when none has. */
  last_error: string | null;
  /** Epoch ms. */
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

/** What `deliver` is asked to do. */
export interface ChannelDeliveryRequest {
  /**
   * The caller's id of what is notified, at most 200 characters. With the channel id it is the idempotency key:
   * one (event, channel) is sent at most once, however often `deliver` is called. A resolved notification of the
   * same alert is another event (`<id>:resolved`, say).
   */
  eventId: string;
  /** Channel ids, or `all` for every enabled channel. An id that names no channel gets a `failed` delivery saying so. */
  channels: readonly string[] | 'all';
  message: ChannelMessage;
}

/** A channel as other plugins may see it: never its secrets. */
export interface ChannelSummary {
  id: string;
  name: string;
  type: string;
  enabled: boolean;
  /** `config` for channels the config file declares (read-only through the API), `store` for the dashboard's. */
  source: 'config' | 'store';
}

/** The answer of a test send. */
export interface ChannelTestResult {
  channel_id: string;
  ok: boolean;
  /** Why it failed (never a secret); null when it was sent. */
  error: string | null;
  /** Whether retrying could help: false for a refusal (a 4xx, a wrong password), true for an outage. */
  retryable: boolean;
  duration_ms: number;
}

/** What the `channels` plugin offers other plugins. */
export interface ChannelsService {
  /**
   * Stores the message and queues one delivery per channel, durably: sends are retried with backoff across restarts
   * and processes. Resolves to the state of each delivery once queued (an earlier call's, for a repeated pair).
   */
  deliver(request: ChannelDeliveryRequest): Promise<ChannelDelivery[]>;
  /** The deliveries of these events, at most 1,000 events at a time. */
  deliveries(eventIds: readonly string[]): Promise<ChannelDelivery[]>;
  /** Every channel, enabled or not. */
  channels(): Promise<ChannelSummary[]>;
  /** Sends `message` (or a test message) to one channel now, outside the queue and without retries. */
  test(channelId: string, message?: ChannelMessage): Promise<ChannelTestResult>;
}
