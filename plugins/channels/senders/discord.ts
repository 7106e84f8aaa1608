import type { ChannelMessage } from '@vigil/plugin-sdk';
import { clip, fieldList, type Sender } from './send-context.js';
import { failUnlessOk, post, targetUrl, type HttpAnswer } from './http-post.js';

const COLOUR = { info: 0x3b82f6, warning: 0xf59e0b, critical: 0xdc2626 } as const;

/**
 * One embed, and `allowed_mentions: { parse: [] }` so that nothing in an alert's text (a user's prompt, a route)
 * can ping @everyone, a role or a user.
 */
export function discordPayload(message: ChannelMessage, username?: string): Record<string, unknown> {
  const embed: Record<string, unknown> = {
    title: clip(message.title, 256),
    description: clip(message.text, 4000),
    color: COLOUR[message.severity],
    timestamp: new Date().toISOString(),
    footer: { text: `Vigil · ${message.severity}` },
  };
  const fields = fieldList(message);
  if (fields.length) embed.fields = fields.map((f) => ({ name: f.name, value: f.value || '—', inline: true }));
  if (message.url) embed.url = message.url;
  return { ...(username ? { username } : {}), embeds: [embed], allowed_mentions: { parse: [] } };
}

/** Above this, a `retry_after` is read as milliseconds (older API versions), below as seconds (today's, a float). */
const SECONDS_CEILING = 300;

/** Milliseconds Discord asked to wait: the body's `retry_after`, else `Retry-After`; undefined when neither says. */
export function discordRetryAfterMs(answer: HttpAnswer): number | undefined {
  try {
    const value = (JSON.parse(answer.text) as { retry_after?: unknown }).retry_after;
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.ceil(value > SECONDS_CEILING ? value : value * 1000);
  } catch { /* not JSON: the header may still say */ }
  return undefined;
}

/** Discord answers 204 (200 with `?wait=true`); 429 carries `retry_after`. */
export const sendDiscord: Sender = async (channel, message, context) => {
  const what = `discord channel "${channel.id}"`;
  const url = targetUrl(channel.url, what);
  const answer = await post(url, JSON.stringify(discordPayload(message, channel.username)), { 'content-type': 'application/json', 'user-agent': 'vigil-channels' }, what, context);
  failUnlessOk(answer, what, answer.status === 429 ? discordRetryAfterMs(answer) : undefined);
};
