import { addConnectionOptions, dropFields, isHopByHop } from './hop-by-hop.js';

/** What the upstream is sent, derived from the client's header block. */
export interface UpstreamRequestHead {
  /** Flat name/value list, the client's names in the client's casing and order, then the X-Forwarded-* fields. */
  headers: string[];
  /** The request carries a body: a non-zero Content-Length, or Transfer-Encoding. */
  hasBody: boolean;
  /** Declared Content-Length, or -1 when absent (chunked or no body). */
  contentLength: number;
  /** The client's Host value, if any. */
  host: string | undefined;
}

export interface ForwardingOptions {
  /** The address of the client's end of the TCP connection (Node's `socket.remoteAddress`). */
  clientAddress: string | undefined;
  /** Scheme the client used to reach the proxy. */
  proto: 'http' | 'https';
  /** Keep the client's Host field; otherwise the upstream client names the upstream's host. */
  preserveHost: boolean;
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is written `10.0.0.1`, as other proxies write it. */
export function clientIp(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * The header block to send upstream, from the client's raw headers (Node's `rawHeaders`: name, value, …):
 * - hop-by-hop fields and the fields Connection lists are dropped (the upstream connection has its own);
 * - Expect is dropped: Node has already answered `100 Continue` to the client, and the body follows;
 * - Host is kept unless `preserveHost` is false;
 * - X-Forwarded-For gets the client's address appended (one field, earlier values first);
 * - X-Forwarded-Proto and X-Forwarded-Host are added when the client did not send them (a proxy in front of this
 *   one saw the original scheme and host; this hop keeps its answer).
 * Every other field goes through as received: name casing, order, repeats and values.
 */
export function upstreamRequestHead(raw: readonly string[], options: ForwardingOptions): UpstreamRequestHead {
  const headers: string[] = [];
  let listed: Set<string> | undefined;
  let chunked = false;
  let contentLength = -1;
  let host: string | undefined;
  let forwardedFor: string | undefined;
  let forwardedForName: string | undefined;
  let hasProto = false;
  let hasForwardedHost = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    const value = raw[i + 1];
    const lower = name.toLowerCase();
    if (isHopByHop(lower)) {
      if (lower === 'connection') listed = addConnectionOptions(value, listed);
      else if (lower === 'transfer-encoding') chunked = true;
      continue;
    }
    switch (lower) {
      case 'expect':
        continue;
      case 'host':
        host = value;
        if (!options.preserveHost) continue;
        break;
      case 'content-length':
        contentLength = Number(value);
        break;
      case 'x-forwarded-for':
        forwardedFor = forwardedFor === undefined ? value : `${forwardedFor}, ${value}`;
        forwardedForName ??= name;
        continue;
      case 'x-forwarded-proto':
        hasProto = true;
        break;
      case 'x-forwarded-host':
        hasForwardedHost = true;
        break;
    }
    headers.push(name, value);
  }
  if (listed !== undefined && listed.size > 0) {
    dropFields(headers, listed);
    // A Connection header naming X-Forwarded-For asks to drop the earlier hops' addresses, not this hop's.
    if (listed.has('x-forwarded-for')) forwardedFor = undefined;
    if (listed.has('x-forwarded-proto')) hasProto = false;
    if (listed.has('x-forwarded-host')) hasForwardedHost = false;
  }
  const ip = clientIp(options.clientAddress);
  headers.push(forwardedForName ?? 'X-Forwarded-For', forwardedFor === undefined ? ip : `${forwardedFor}, ${ip}`);
  if (!hasProto) headers.push('X-Forwarded-Proto', options.proto);
  if (!hasForwardedHost && host !== undefined) headers.push('X-Forwarded-Host', host);
  return { headers, hasBody: chunked || contentLength > 0, contentLength: chunked ? -1 : contentLength, host };
}
