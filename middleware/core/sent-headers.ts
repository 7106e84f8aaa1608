import type { ServerResponse } from 'node:http';
import { downstreamResponseHead } from '../../gateway/exchange/response-headers.js';

/**
 * The response header block exactly as Node wrote it to the client (its `_header` text, which holds what the app set
 * plus what Node added itself: Date, framing, Connection), less the hop-by-hop fields, which is what the gateway
 * records of an upstream's answer (`downstreamResponseHead`). Null before the head was written.
 */
export function sentResponseHeaders(res: ServerResponse): string[] | null {
  const head = (res as unknown as { _header?: unknown })._header;
  if (typeof head !== 'string' || head === '') return null;
  const raw: string[] = [];
  // The status line first, then `Name: value` lines, then the blank line.
  let at = head.indexOf('\r\n') + 2;
  while (at > 1 && at < head.length) {
    const end = head.indexOf('\r\n', at);
    if (end === -1 || end === at) break;
    const colon = head.indexOf(':', at);
    if (colon > at && colon < end) raw.push(head.slice(at, colon), head.slice(colon + 1, end).trim());
    at = end + 2;
  }
  return downstreamResponseHead(raw).headers;
}
