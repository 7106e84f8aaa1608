import type { ChannelSettings } from './types.js';

/**
 * The settings that are secrets: a webhook URL is a credential (Slack's, Discord's and ntfy's carry their token in
 * the path), as are tokens, HMAC keys, header values (API keys) and SMTP passwords. They are encrypted at rest when
 * entered through the API, never sent to the browser, never logged.
 */
export const SECRET_KEYS = ['url', 'token', 'secret', 'password', 'headers'] as const;
export type SecretKey = (typeof SECRET_KEYS)[number];
export type ChannelSecrets = Pick<ChannelSettings, SecretKey>;

const MASK = '••••••••';

/** The settings without their secrets, and the secrets alone. */
export function splitSecrets<S extends ChannelSettings>(settings: S): { plain: Omit<S, SecretKey>; secrets: ChannelSecrets } {
  const plain: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    ((SECRET_KEYS as readonly string[]).includes(key) ? secrets : plain)[key] = value;
  }
  return { plain: plain as Omit<S, SecretKey>, secrets: secrets as ChannelSecrets };
}

/**
 * What the browser sees of each secret: a URL's scheme and host (so a user can tell the Slack hook from the Discord
 * one), a header's name, and a mask for the rest.
 */
export function maskSecrets(secrets: ChannelSecrets): Record<string, unknown> {
  const masked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(secrets)) {
    if (value === undefined) continue;
    if (key === 'url') masked.url = maskUrl(String(value));
    else if (key === 'headers') masked.headers = Object.fromEntries(Object.keys(value as Record<string, string>).map((name) => [name, MASK]));
    else masked[key] = MASK;
  }
  return masked;
}

/** `https://hooks.slack.com/••••••••`: the origin, with the path, query and any credentials masked. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/${MASK}`;
  } catch {
    return MASK;
  }
}
