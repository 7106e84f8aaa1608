// What a host name or address stands for when the question is "would a request there reach the same server?". Every
// spelling of one address is one identity (`127.1`, `2130706433`, `0x7f.1` and `0177.0.0.1` are 127.0.0.1;
// `::ffff:7f00:1` is 127.0.0.1 too), and every address of this machine is one identity, `this-host`: the loopback
// range, the unspecified addresses (a connection to 0.0.0.0 or :: reaches a local listener) and the addresses of its
// interfaces, since a server bound to every interface answers on all of them. Pure: resolving names is the caller's.
import { networkInterfaces } from 'node:os';

/** The identity of every address of this machine. */
export const THIS_HOST = 'this-host';

/** `Foo.Example.` → `foo.example`; `[::1]` → `::1`. A name with a trailing dot is the same name (an absolute one). */
export function canonicalHostName(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').toLowerCase().replace(/\.+$/, '');
}

/** `localhost` and every name under it: RFC 6761 reserves them for the loopback, and curl and browsers resolve them so. */
export function isLocalhostName(name: string): boolean {
  const n = canonicalHostName(name);
  return n === 'localhost' || n.endsWith('.localhost');
}

/**
 * An IPv4 address in any spelling `inet_aton` and URL parsers take: one to four parts, each decimal, octal (leading
 * 0) or hex (0x), the last filling the remaining bytes (`127.1`, `2130706433`, `0x7f.0.0.1`). Undefined otherwise.
 */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return undefined;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return undefined;
  return values.reduce((sum, v, i) => sum + v * 256 ** (3 - i), 0) + last;
}

/** The eight 16-bit words of an IPv6 address (brackets and a `%zone` allowed, a dotted IPv4 tail too); undefined otherwise. */
export function parseIPv6(text: string): number[] | undefined {
  let t = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '').toLowerCase();
  if (!t.includes(':')) return undefined;
  const tail: number[] = [];
  const dotted = /^(.*:)([0-9]{1,3}(?:\.[0-9]{1,3}){3})$/.exec(t);
  if (dotted) {
    const bytes = dotted[2].split('.').map(Number);
    if (bytes.some((b) => b > 255)) return undefined;
    tail.push(bytes[0] * 256 + bytes[1], bytes[2] * 256 + bytes[3]);
    t = dotted[1].endsWith('::') ? dotted[1] : dotted[1].slice(0, -1);
  }
  const halves = t.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !rest) return undefined;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return undefined;
  return [...head, ...Array<number>(8 - known).fill(0), ...rest, ...tail];
}

const ip4Key = (n: number): string => `ip4:${[24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.')}`;
const ip6Key = (w: number[]): string => `ip6:${w.map((x) => x.toString(16)).join(':')}`;

/**
 * The IPv4 address an IPv6 address carries, where the network may deliver it to that IPv4 host: mapped
 * (`::ffff:a.b.c.d`, which the kernel connects over IPv4), compatible (`::a.b.c.d`), SIIT-translated
 * (`::ffff:0:a.b.c.d`) and NAT64's well-known prefix (`64:ff9b::a.b.c.d`).
 */
function embeddedIPv4(w: number[]): number | undefined {
  const zero = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  const v4 = w[6] * 65536 + w[7];
  if (zero(0, 5) && (w[5] === 0xffff || w[5] === 0)) return v4;
  if (zero(0, 4) && w[4] === 0xffff && w[5] === 0) return v4;
  if (w[0] === 0x64 && w[1] === 0xff9b && zero(2, 6)) return v4;
  return undefined;
}

/** `ip4:…`/`ip6:…` keys of this machine's interface addresses. */
export function localAddressKeys(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      const key = addressKey(a.address);
      if (key) out.add(key);
    }
  }
  return out;
}

/** The canonical key of one address (`ip4:127.0.0.1`, `ip6:0:0:0:0:0:0:0:1`), or undefined for a name. */
export function addressKey(address: string): string | undefined {
  const bare = canonicalHostName(address);
  const v4 = parseIPv4(bare);
  if (v4 !== undefined) return ip4Key(v4);
  const v6 = parseIPv6(bare);
  return v6 ? ip6Key(v6) : undefined;
}

/**
 * Every identity of one address: its canonical key, the IPv4 address an IPv6 one carries, and `this-host` when it is
 * this machine (127.0.0.0/8, 0.0.0.0/8, ::1, ::, or one of `local`, the interface keys). Empty for a name.
 */
export function addressIdentities(address: string, local: ReadonlySet<string> = localAddressKeys()): Set<string> {
  const out = new Set<string>();
  const bare = canonicalHostName(address);
  const v6 = parseIPv6(bare);
  let v4 = parseIPv4(bare);
  if (v6) {
    out.add(ip6Key(v6));
    const zeroes = v6.slice(0, 7).every((x) => x === 0);
    if (zeroes && v6[7] <= 1) out.add(THIS_HOST);
    v4 = embeddedIPv4(v6);
  }
  if (v4 !== undefined) {
    out.add(ip4Key(v4));
    const first = Math.floor(v4 / 2 ** 24);
    if (first === 127 || first === 0) out.add(THIS_HOST);
  }
  for (const key of out) if (local.has(key)) out.add(THIS_HOST);
  return out;
}
