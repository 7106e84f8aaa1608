// Which stored form of a file a client gets: br, gzip or the file itself, the smallest it accepts.

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * The q-value Accept-Encoding gives each coding (RFC 9110 §12.5.3): `*` stands for codings not named; a q of 0 means
 * "not acceptable"; identity is acceptable unless refused by name or by `*;q=0`. Names compare without case.
 */
export function acceptedEncodings(header: string | undefined): Map<Encoding, number> {
  const named = new Map<string, number>();
  let star: number | undefined;
  for (const part of (header ?? '').split(',')) {
    const [rawName, ...params] = part.trim().split(';');
    const name = rawName.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    if (name === '*') star = q;
    else named.set(name === 'x-gzip' ? 'gzip' : name, Math.max(q, named.get(name) ?? 0));
  }
  const out = new Map<Encoding, number>();
  for (const coding of ['br', 'gzip'] as const) {
    const q = named.get(coding) ?? star ?? 0;
    if (q > 0) out.set(coding, q);
  }
  const identity = named.get('identity') ?? (star === 0 ? 0 : 1);
  if (identity > 0) out.set('identity', identity);
  return out;
}

/**
 * The smallest of `sizes` (bytes per stored form; identity always present) that the client accepts. When the client
 * refuses everything stored, identity is sent anyway (RFC 9110 allows it, and a page that loads beats a 406).
 */
export function chooseEncoding(header: string | undefined, sizes: Partial<Record<Encoding, number>> & { identity: number }): Encoding {
  const accepted = acceptedEncodings(header);
  let best: Encoding | undefined;
  for (const coding of ['br', 'gzip', 'identity'] as const) {
    const size = sizes[coding];
    if (size === undefined || !accepted.has(coding)) continue;
    if (best === undefined || size < sizes[best]!) best = coding;
  }
  return best ?? 'identity';
}
