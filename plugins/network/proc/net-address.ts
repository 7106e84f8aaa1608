import { endianness } from 'node:os';

// /proc/net/{tcp,udp}{,6} write addresses as the kernel holds them: 32-bit words in the host's byte order, printed
// as hex. On a little-endian machine (x86, arm64) `0100007F` is 127.0.0.1.
const LITTLE = endianness() === 'LE';

/** The bytes of one hex address field of /proc/net/tcp (8 hex digits for IPv4, 32 for IPv6), in network order. */
function addressBytes(hex: string): number[] | undefined {
  if (hex.length !== 8 && hex.length !== 32) return undefined;
  const out: number[] = [];
  for (let w = 0; w < hex.length; w += 8) {
    const word = [0, 2, 4, 6].map((i) => parseInt(hex.slice(w + i, w + i + 2), 16));
    if (word.some((b) => !Number.isInteger(b))) return undefined;
    out.push(...(LITTLE ? word.reverse() : word));
  }
  return out;
}

/** IPv6 text in the RFC 5952 form: lower case, the longest run of two or more zero groups as `::`, v4-mapped as `::ffff:a.b.c.d`. */
export function formatIpv6(bytes: readonly number[]): string {
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i] << 8) | bytes[i + 1]);
  let bestAt = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) { bestAt = i; bestLen = j - i; }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestAt < 0) return hex.join(':');
  return `${hex.slice(0, bestAt).join(':')}::${hex.slice(bestAt + bestLen).join(':')}`;
}

/** Address texts by their hex field: a machine's sockets share a few addresses, so most lines decode by a lookup. */
const decoded = new Map<string, { address: string; family: 4 | 6 } | null>();
const DECODED_MAX = 4096;

function decodeAddress(hex: string): { address: string; family: 4 | 6 } | null {
  let hit = decoded.get(hex);
  if (hit !== undefined) return hit;
  if (hex.length === 8 && /^[0-9A-Fa-f]{8}$/.test(hex)) {
    const n = parseInt(hex, 16);
    hit = { address: LITTLE ? `${n & 255}.${(n >>> 8) & 255}.${(n >>> 16) & 255}.${n >>> 24}` : `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`, family: 4 };
  } else {
    const bytes = addressBytes(hex);
    hit = bytes && bytes.length === 16 ? { address: formatIpv6(bytes), family: 6 } : null;
  }
  if (decoded.size >= DECODED_MAX) decoded.clear();
  decoded.set(hex, hit);
  return hit;
}

/** `ADDR:PORT` of /proc/net/tcp as an address text and a port; undefined when the field is not one. */
export function parseProcAddress(field: string): { address: string; port: number; family: 4 | 6 } | undefined {
  const colon = field.indexOf(':');
  if (colon < 0) return undefined;
  const addr = decodeAddress(field.slice(0, colon));
  const portHex = field.slice(colon + 1);
  const port = parseInt(portHex, 16);
  if (!addr || portHex.length === 0 || portHex.length > 4 || !Number.isInteger(port) || port < 0) return undefined;
  return { address: addr.address, port, family: addr.family };
}

/** Whether only this machine can reach `address`: 127.0.0.0/8, ::1, and IPv4-mapped loopback. */
export function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.');
}

/** Whether `address` is the wildcard (0.0.0.0 or ::): a socket bound to every interface. */
export function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || address === '::';
}
