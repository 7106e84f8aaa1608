// Whether a replay target is the live service: the config's `service.upstream`, or the gateway itself
// (`service.listen`, which forwards to it). Both sides are resolved (dns.lookup, every address) and compared by
// identity (host-identity.ts) and port, so no spelling of an address, no name that resolves to it and no address of
// this machine reaches the upstream unrefused. The target's addresses are also what the replay then connects to, so a
// name cannot resolve to staging for the check and to the upstream for the requests.
import { lookup as dnsLookup } from 'node:dns/promises';
import { tryParseListenAddress } from '@vigil/plugin-sdk';
import { addressIdentities, canonicalHostName, isLocalhostName, localAddressKeys, THIS_HOST } from './host-identity.js';

/** Every address a name resolves to; [] when it does not resolve. */
export type Resolve = (name: string) => Promise<string[]>;

export interface LiveCheck {
  /**
   * Why the target is taken for the live service (`reaches service.upstream (…): the same address and port 3000`), or
   * null when it is neither. A live host whose name resolves to nothing here cannot be compared, so a target on its
   * port is taken for it too: the guard fails closed.
   */
  live: string | null;
  /** The addresses the target's host stands for: connect to these and nothing else (empty: it does not resolve). */
  connectTo: string[];
}

export interface LiveCheckDeps {
  resolve?: Resolve;
  /** `ip4:`/`ip6:` keys of this machine's interfaces (host-identity's localAddressKeys). */
  localKeys?: ReadonlySet<string>;
}

const systemResolve: Resolve = async (name) => {
  try {
    return (await dnsLookup(name, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return [];
  }
};

/** A host as a request reaches it: its identities and the addresses behind them (none: a name that does not resolve). */
interface Reach { identities: Set<string>; addresses: string[] }

/** Where `host` leads: an address literal is itself; a name is what it resolves to, with and without a trailing dot. */
async function reachOf(host: string, resolve: Resolve, local: ReadonlySet<string>): Promise<Reach> {
  const name = canonicalHostName(host);
  const literal = addressIdentities(name, local);
  if (literal.size > 0) return { identities: literal, addresses: [name] };
  // Unresolvable names are one host only when spelled alike (after case and trailing dots).
  const identities = new Set<string>([`name:${name}`]);
  const spellings = new Set([host.toLowerCase(), name]);
  const addresses = [...new Set((await Promise.all([...spellings].map(resolve))).flat())];
  for (const a of addresses) for (const id of addressIdentities(a, local)) identities.add(id);
  if (isLocalhostName(name)) {
    identities.add(THIS_HOST);
    if (addresses.length === 0) addresses.push('127.0.0.1', '::1');
  }
  return { identities, addresses };
}

const portOf = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/** Why `target` is taken for the live service (`reaches service.upstream …`, `may reach the gateway …`), or null. */
export async function liveServiceMatch(
  target: URL, service: { upstream?: unknown; listen?: unknown } | undefined, deps: LiveCheckDeps = {},
): Promise<string | null> {
  return (await checkReplayTarget(target, service, deps)).live;
}

/** Whether `target` is the live service, and the addresses to send its requests to. */
export async function checkReplayTarget(
  target: URL, service: { upstream?: unknown; listen?: unknown } | undefined, deps: LiveCheckDeps = {},
): Promise<LiveCheck> {
  const resolve = deps.resolve ?? systemResolve;
  const local = deps.localKeys ?? localAddressKeys();
  const mine = await reachOf(target.hostname, resolve, local);
  const port = portOf(target);
  const candidates: { what: string; port: number; reach: () => Promise<Reach> }[] = [];
  if (typeof service?.upstream === 'string') {
    let upstream: URL | undefined;
    try {
      upstream = new URL(service.upstream);
    } catch { /* an invalid upstream never passed validation; nothing to compare */ }
    if (upstream) {
      const host = upstream.hostname;
      candidates.push({
        what: `service.upstream (${upstream.origin})`, port: portOf(upstream),
        reach: () => reachOf(host, resolve, local),
      });
    }
  }
  const listen = tryParseListenAddress(service?.listen);
  if (listen) {
    // A bare port or `:port` binds every interface (the proxy's listenAt), as do the unspecified addresses.
    const host = listen.host === undefined || listen.host === '' ? undefined : listen.host;
    candidates.push({
      what: `the gateway itself (service.listen ${String(service?.listen)}), which forwards to the upstream`, port: listen.port,
      reach: async () => (host === undefined ? { identities: new Set([THIS_HOST]), addresses: ['0.0.0.0'] } : reachOf(host, resolve, local)),
    });
  }
  let undecided: string | null = null;
  for (const candidate of candidates) {
    if (candidate.port !== port) continue;
    const theirs = await candidate.reach();
    if ([...mine.identities].some((id) => theirs.identities.has(id))) {
      return { live: `reaches ${candidate.what}: the same address and port ${port}`, connectTo: mine.addresses };
    }
    if (theirs.addresses.length === 0) {
      undecided ??= `may reach ${candidate.what}: its host does not resolve here, so no address on port ${port} can be told apart from it`;
    }
  }
  return { live: undecided, connectTo: mine.addresses };
}
