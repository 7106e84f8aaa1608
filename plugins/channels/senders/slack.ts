import type { ChannelMessage } from '@vigil/plugin-sdk';
import { clip, fieldList, LIMITS, type Sender } from './send-context.js';
import { failUnlessOk, post, targetUrl } from './http-post.js';

/** Slack's mrkdwn escaping: `&`, `<` and `>` are its only control characters (a `<` would start a link or a mention). */
export const escapeSlack = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const EMOJI = { info: ':information_source:', warning: ':warning:', critical: ':rotating_light:' } as const;

/** The incoming webhook's JSON: `text` for notifications and old clients, `blocks` for the layout. */
export function slackPayload(message: ChannelMessage): { text: string; blocks: unknown[] } {
  // Clipped after escaping (an `&` grows to five characters): a section's text holds at most 3,000.
  const title = clip(escapeSlack(message.title), 150);
  const text = clip(escapeSlack(message.text), 2800);
  const blocks: unknown[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `${EMOJI[message.severity]} *${title}*\n${text}` } },
  ];
  const fields = fieldList(message).slice(0, 10);
  if (fields.length) blocks.push({ type: 'section', fields: fields.map((f) => ({ type: 'mrkdwn', text: clip(`*${escapeSlack(f.name)}*\n${escapeSlack(f.value)}`, 2000) })) });
  // A URL goes inside <…|…>, where only the three escapes apply; a `|` in it would end the link early.
  if (message.url) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `<${escapeSlack(message.url).replace(/\|/g, '%7C')}|Open in Vigil>` }] });
  return { text: clip(`${EMOJI[message.severity]} ${title}: ${text}`, LIMITS.text), blocks };
}

/** Slack answers 200 `ok`; its errors are plain words (`invalid_payload`, `channel_is_archived`) with a 4xx. */
export const sendSlack: Sender = async (channel, message, context) => {
  const what = `slack channel "${channel.id}"`;
  const url = targetUrl(channel.url, what);
  const answer = await post(url, JSON.stringify(slackPayload(message)), { 'content-type': 'application/json', 'user-agent': 'vigil-channels' }, what, context);
  failUnlessOk(answer, what);
};
