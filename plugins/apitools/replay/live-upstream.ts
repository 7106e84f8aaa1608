// Whether a replay target is the live service: the config's `service.upstream`, or the gateway itself
// (`service.listen`, which forwards to it). Hosts are compared by the addresses they resolve to, so `localhost`,
// `127.0.0.1` and `[::1]` are one host, and a gateway listening on every interface matches any local address.
import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import { tryParseListenAddress } from '@vigil/plugin-sdk';

/** A host and port that a request to it would reach. `host` undefined: every local interface. */
interface Endpoint { host: string | undefined; port: number }

/** Why `target` is the live service (`service.upstream …` / `the gateway …`), or null when it is neither. */
export async function liveServiceMatch(target: URL, service: { upstream?: unknown; listen?: unknown } | undefined): Promise<string | null> {
  const mine = endpointOf(target);
  const candidates: { what: string; endpoint: Endpoint }[] = [];
  if (typeof service?.upstream === 'string') {
    try {
      candidates.push({ what: `service.upstream (${new URL(service.upstream).origin})`, endpoint: endpointOf(new URL(service.upstream)) });
    } catch { /* an invalid upstream never passed validation; nothing to compare */ }
  }
  const listen = tryParseListenAddress(service?.listen);
  if (listen) {
    const host = listen.host === undefined || listen.host === '' || isWildcard(listen.host) ? undefined : listen.host;
    candidates.push({ what: `the gateway itself (service.listen ${String(service?.listen)}), which forwards to the upstream`, endpoint: { host, port: listen.port } });
  }
  const targetAddresses = await addressesOf(mine.host!);
  for (const { what, endpoint } of candidates) {
    if (endpoint.port !== mine.port) continue;
    const theirs = endpoint.host === undefined ? localAddresses() : await addressesOf(endpoint.host);
    if ([...targetAddresses].some((a) => theirs.has(a))) return what;
  }
  return null;
}

function endpointOf(url: URL): Endpoint {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port };
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/**
 * The addresses a host resolves to, normalised; the name itself when it does not resolve (two unresolvable names are
 * the same host only when spelled alike). Loopback addresses are one address: a server on 127.0.0.1 is what
 * `localhost` reaches, whichever family the resolver lists first.
 */
async function addressesOf(host: string): Promise<Set<string>> {
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    addresses = [host];
  }
  return new Set(addresses.map(normalise));
}

function localAddresses(): Set<string> {
  const out = new Set<string>(['loopback']);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.add(normalise(a.address));
  return out;
}

function normalise(address: string): string {
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  // 0.0.0.0 and :: as a destination reach this host too (Linux connects them to the loopback).
  return a === '::1' || a === '0.0.0.0' || a === '::' || /^127\./.test(a) ? 'loopback' : a;
}
