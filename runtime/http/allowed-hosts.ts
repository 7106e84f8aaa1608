import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { hostNotAllowed } from './errors.js';

/** Names every control plane answers to: they always mean this machine, so no DNS answer can rebind them. */
const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

/**
 * A host name or IP literal in the one spelling that is compared: lower case, punycode, no trailing dot, IPv4 dotted,
 * IPv6 canonical and without brackets. Undefined for anything that is not a bare host (a port, a path, userinfo,
 * spaces).
 */
export function canonicalHost(text: string): string | undefined {
  const bracketed = text.startsWith('[') && text.endsWith(']');
  const inner = bracketed ? text.slice(1, -1) : text;
  try {
    if (bracketed || inner.includes(':')) return isIP(inner) === 6 ? new URL(`http://[${inner}]/`).hostname.slice(1, -1) : undefined;
    // The URL parser would read "u@h" or "h/x" as a URL with a host; only host characters may reach it.
    if (!/^[^\s/?#@[\]\\%]+$/.test(inner)) return undefined;
    const hostname = new URL(`http://${inner}/`).hostname.replace(/\.$/, '');
    return hostname === '' ? undefined : hostname;
  } catch {
    return undefined;
  }
}

const HOST_HEADER = /^(\[[^\]]*\]|[^:[\]]*)(?::([0-9]{1,5}))?$/;

/** A Host header (`name`, `name:port`, `[v6]:port`) as a canonical host name and the port as written ('' if none). */
export function parseHostHeader(value: string): { hostname: string; port: string } | undefined {
  const match = HOST_HEADER.exec(value);
  if (!match || Number(match[2] ?? 0) > 65535) return undefined;
  const hostname = canonicalHost(match[1]);
  return hostname === undefined ? undefined : { hostname, port: match[2] ?? '' };
}

/**
 * The host names a control plane answers to (`control_plane.allowed_hosts`), against DNS rebinding: a page on a
 * name its attacker controls, re-pointed at 127.0.0.1, is same-origin with itself and could read every answer;
 * its requests carry that name in Host, and are refused here. Always allowed: `localhost`, `127.0.0.1`, `::1` and
 * the listen host. A wildcard bind (every interface) allows every IP literal, since IP literals cannot be rebound;
 * `*` in the list turns the check off (for a proxy in front that checks Host itself).
 */
export class HostAllowList {
  private readonly names = new Set<string>(LOOPBACK);
  private readonly anyHost: boolean;
  private readonly anyAddress: boolean;

  /** `listenHost` as bound: undefined, '', `0.0.0.0` or `::` is every interface. Entries must pass canonicalHost. */
  constructor(configured: readonly string[], listenHost: string | undefined) {
    this.anyHost = configured.includes('*');
    this.anyAddress = !listenHost || listenHost === '0.0.0.0' || listenHost === '::';
    for (const entry of [...configured, ...(this.anyAddress ? [] : [listenHost!])]) {
      const host = entry === '*' ? undefined : canonicalHost(entry);
      if (host !== undefined) this.names.add(host);
    }
  }

  /** Whether `hostname` (canonical) may be the Host of a request. */
  allows(hostname: string): boolean {
    return this.anyHost || this.names.has(hostname) || (this.anyAddress && isIP(hostname) !== 0);
  }
}

const effectivePort = (port: string, scheme: string): string => port || (scheme === 'https:' ? '443' : '80');

/**
 * Throws 421 unless the request names an allowed host: one Host header, well formed and allowed; and an
 * absolute-form target (`GET http://host/path`), which takes precedence over Host, naming the same host and port.
 * A request without Host and target (HTTP/1.0) passes: browsers always send Host, and rebinding needs a browser.
 */
export function assertAllowedHost(req: IncomingMessage, allowed: HostAllowList): void {
  let hostHeaders = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].length === 4 && req.rawHeaders[i].toLowerCase() === 'host') hostHeaders++;
  // Node keeps the first of several Host headers; a proxy in front may have read another.
  if (hostHeaders > 1) throw hostNotAllowed('the request has more than one Host header; send exactly one');
  const header = req.headers.host;
  const host = header === undefined ? undefined : parseHostHeader(header);
  if (header !== undefined && !host) {
    throw hostNotAllowed(`the Host header ${JSON.stringify(header)} is not a host name or IP address with an optional port`);
  }
  const url = req.url ?? '/';
  let authority = host;
  if (!url.startsWith('/') && url !== '*') {
    let target: URL | undefined;
    try { target = new URL(url); } catch { /* refused below */ }
    const hostname = target && (target.protocol === 'http:' || target.protocol === 'https:') ? canonicalHost(target.hostname) : undefined;
    if (!target || hostname === undefined) throw hostNotAllowed('the request target is neither a path nor an http(s) URL with a host');
    if (host && (host.hostname !== hostname || effectivePort(host.port, target.protocol) !== effectivePort(target.port, target.protocol))) {
      throw hostNotAllowed(`the request target names ${target.host} but the Host header says ${JSON.stringify(header)}; they must agree`);
    }
    authority = { hostname, port: target.port };
  }
  if (authority && !allowed.allows(authority.hostname)) {
    throw hostNotAllowed(`this control plane does not answer to the host name ${JSON.stringify(authority.hostname)}; if you reach it ` +
      'by that name, add the name to control_plane.allowed_hosts');
  }
}
