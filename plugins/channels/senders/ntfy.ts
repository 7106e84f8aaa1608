import type { ChannelMessage } from '@vigil/plugin-sdk';
import { clip, fieldList, LIMITS, type Sender } from './send-context.js';
import { failUnlessOk, post, targetUrl } from './http-post.js';

const PRIORITY = { info: 3, warning: 4, critical: 5 } as const;
const TAG = { info: 'information_source', warning: 'warning', critical: 'rotating_light' } as const;

/** A header value as ntfy reads it: ASCII as it is, anything else as an RFC 2047 encoded word (ntfy decodes them). */
export function headerText(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

/** The request: the body is the text (and the fields, a line each); title, priority, tags and the link go in headers. */
export function ntfyRequest(message: ChannelMessage, settings: { token?: string; priority?: number; tags?: string[] }): { body: string; headers: Record<string, string> } {
  const lines = [clip(message.text, LIMITS.text), ...fieldList(message).map((f) => `${f.name}: ${f.value}`)];
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    'user-agent': 'vigil-channels',
    title: headerText(clip(message.title, LIMITS.title)),
    priority: String(settings.priority ?? PRIORITY[message.severity]),
    tags: [TAG[message.severity], ...(settings.tags ?? [])].join(','),
  };
  if (message.url) headers.click = message.url;
  if (settings.token) headers.authorization = `Bearer ${settings.token}`;
  return { body: lines.join('\n'), headers };
}

/** ntfy answers 200 with the message as JSON; errors are JSON `{ code, http, error }` (403, 429 when rate-limited). */
export const sendNtfy: Sender = async (channel, message, context) => {
  const what = `ntfy channel "${channel.id}"`;
  const url = targetUrl(channel.url, what);
  const { body, headers } = ntfyRequest(message, channel);
  failUnlessOk(await post(url, body, headers, what, context), what);
};
