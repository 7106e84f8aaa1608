import type { ChannelMessage } from '@vigil/plugin-sdk';
import type { Dispatcher } from 'undici';
import type { Channel } from '../types.js';

/** What every sender is handed besides the channel and the message. */
export interface SendContext {
  eventId: string;
  /** The same for every attempt of one (event, channel): receivers that see it twice can drop the second. */
  idempotencyKey: string;
  /** One send's deadline, in ms: connect, request and answer. */
  timeoutMs: number;
  /** The HTTP connection pool the channels share. */
  dispatcher: Dispatcher;
  /** True for a test send from the dashboard. */
  test: boolean;
  /** Where desktop notifications look for a session bus and notify-send. */
  env: NodeJS.ProcessEnv;
}

/** Sends one message through one channel. Throws a `PermanentError` when retrying cannot help, anything else to retry. */
export type Sender = (channel: Channel, message: ChannelMessage, context: SendContext) => Promise<void>;

/** Limits every channel applies, at or under each service's own. */
export const LIMITS = { title: 256, text: 4000, fields: 25, fieldName: 256, fieldValue: 1024 } as const;

/** `text` cut to `max` characters (code points, so no surrogate pair is split), with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The message's fields as name and value strings, within the limits. */
export function fieldList(message: ChannelMessage): { name: string; value: string }[] {
  return Object.entries(message.fields ?? {}).slice(0, LIMITS.fields)
    .map(([name, value]) => ({ name: clip(name, LIMITS.fieldName), value: clip(value === null ? '—' : String(value), LIMITS.fieldValue) }));
}
