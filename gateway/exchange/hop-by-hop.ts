/**
 * Hop-by-hop header fields (RFC 9110 §7.6.1): they describe one connection, so a proxy consumes them and never
 * forwards them - Connection itself, every field it lists, and the fields below (Proxy-Connection, Keep-Alive and
 * Transfer-Encoding are not named by §7.6.1 but carry the same per-connection meaning in HTTP/1.1 practice).
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

// Fields that frame or route the message: a Connection header listing them must not make the proxy drop them, or
// a client could strip the Host or the body length from what the upstream sees.
const NEVER_DROPPED_BY_CONNECTION = new Set(['host', 'content-length']);

/** True for a lower-case field name that is hop-by-hop whatever the Connection header says. */
export function isHopByHop(lowerName: string): boolean {
  return HOP_BY_HOP.has(lowerName);
}

/**
 * Adds the field names a Connection header value lists (`close, X-Debug`), lower-cased, to `into` (created when
 * needed). Returns `into` unchanged when the value lists none, as the usual `keep-alive` or `close` does.
 */
export function addConnectionOptions(value: string, into: Set<string> | undefined): Set<string> | undefined {
  if (value.length <= 10) {
    const v = value.toLowerCase();
    if (v === 'keep-alive' || v === 'close') return into;
  }
  for (const token of value.split(',')) {
    const name = token.trim().toLowerCase();
    if (name !== '' && name !== 'close' && name !== 'keep-alive' && !NEVER_DROPPED_BY_CONNECTION.has(name)) (into ??= new Set()).add(name);
  }
  return into;
}

/** Removes, in place, the name/value pairs of a flat header list whose names are in `names` (lower case). */
export function dropFields(flat: string[], names: ReadonlySet<string>): string[] {
  let w = 0;
  for (let r = 0; r + 1 < flat.length; r += 2) {
    if (names.has(flat[r].toLowerCase())) continue;
    flat[w++] = flat[r];
    flat[w++] = flat[r + 1];
  }
  flat.length = w;
  return flat;
}
