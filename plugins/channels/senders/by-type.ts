import type { ChannelType } from '../types.js';
import { sendDesktop } from './desktop.js';
import { sendDiscord } from './discord.js';
import { sendEmail } from './email.js';
import { sendNtfy } from './ntfy.js';
import type { Sender } from './send-context.js';
import { sendSlack } from './slack.js';
import { sendWebhook } from './webhook.js';

/** The sender of each channel type. */
export const senders: Record<ChannelType, Sender> = {
  ntfy: sendNtfy, slack: sendSlack, discord: sendDiscord, webhook: sendWebhook, email: sendEmail, desktop: sendDesktop,
};
