import type { ChannelSettings } from './types.js';

/** A header name as HTTP defines a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** An address, alone or as `Name <address>`; mail servers check the rest. */
const ADDRESS = /^(?:[^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/;

/** What the schema cannot say about one channel's settings: the key path (below the channel) and the problem. */
export function settingsProblem(settings: ChannelSettings): { path: (string | number)[]; message: string } | undefined {
  if (settings.from !== undefined && !ADDRESS.test(settings.from)) return { path: ['from'], message: `"${settings.from}" is not an address (alerts@example.com, or Vigil <alerts@example.com>)` };
  for (const [i, to] of (settings.to ?? []).entries()) {
    if (!ADDRESS.test(to)) return { path: ['to', i], message: `"${to}" is not an address` };
  }
  if (settings.password !== undefined && settings.user === undefined) return { path: ['password'], message: 'a password needs a user' };
  for (const [name, value] of Object.entries(settings.headers ?? {})) {
    if (!TOKEN.test(name)) return { path: ['headers', name], message: 'not a valid header name' };
    if (/[\r\n\0]/.test(value)) return { path: ['headers', name], message: 'a header value cannot hold line breaks' };
  }
  return undefined;
}
