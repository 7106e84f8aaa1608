// A reader of classic pcap files (what tcpdump -w writes): the global header, then per packet a 16-byte record
// header and the captured bytes. It decodes only what a summary line shows: link layer, IPv4/IPv6, TCP/UDP/ICMP.

/** One packet as the in-place view lists it. */
export interface PacketSummary {
  index: number;
  /** Capture time, epoch microseconds. */
  time_us: number;
  /** The packet's length on the wire; `captured` is what the file holds (cut at the snap length). */
  length: number;
  captured: number;
  protocol: string;
  src: string | null;
  dst: string | null;
  src_port: number | null;
  dst_port: number | null;
  /** TCP flags as tcpdump names them (SYN, ACK, FIN, RST, PSH, URG), space-separated; null for other protocols. */
  tcp_flags: string | null;
  /** One line more: the ICMP type, the ARP question, the ethertype of an unknown frame. */
  info: string;
}

export interface PcapHeader {
  littleEndian: boolean;
  /** Timestamps in nanoseconds (magic a1b23c4d) instead of microseconds. */
  nanos: boolean;
  snaplen: number;
  linktype: number;
}

export class PcapFormatError extends Error {}

const GLOBAL_HEADER = 24;
const RECORD_HEADER = 16;

/** The global header of a pcap file; throws PcapFormatError for anything else (pcapng included). */
export function readPcapHeader(b: Uint8Array): PcapHeader {
  if (b.length < GLOBAL_HEADER) throw new PcapFormatError('the file is shorter than a pcap header');
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const magic = v.getUint32(0, false);
  let littleEndian: boolean;
  let nanos: boolean;
  if (magic === 0xa1b2c3d4 || magic === 0xa1b23c4d) { littleEndian = false; nanos = magic === 0xa1b23c4d; }
  else if (magic === 0xd4c3b2a1 || magic === 0x4d3cb2a1) { littleEndian = true; nanos = magic === 0x4d3cb2a1; }
  else if (magic === 0x0a0d0d0a) throw new PcapFormatError('this is a pcapng file; only classic pcap is decoded here');
  else throw new PcapFormatError('not a pcap file (unknown magic number)');
  return { littleEndian, nanos, snaplen: v.getUint32(16, littleEndian), linktype: v.getUint32(20, littleEndian) & 0x0fffffff };
}

const TCP_FLAG_NAMES: [number, string][] = [[0x02, 'SYN'], [0x10, 'ACK'], [0x01, 'FIN'], [0x04, 'RST'], [0x08, 'PSH'], [0x20, 'URG']];
const ICMP_TYPES: Record<number, string> = { 0: 'echo reply', 3: 'destination unreachable', 5: 'redirect', 8: 'echo request', 11: 'time exceeded' };
const ICMP6_TYPES: Record<number, string> = { 1: 'destination unreachable', 3: 'time exceeded', 128: 'echo request', 129: 'echo reply', 133: 'router solicitation', 134: 'router advertisement', 135: 'neighbor solicitation', 136: 'neighbor advertisement' };

function ipv6Text(b: Uint8Array, at: number): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[at + i] << 8) | b[at + i + 1]).toString(16));
  // Compress the longest run of zero groups (RFC 5952).
  let best = -1; let len = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') { i++; continue; }
    let j = i; while (j < 8 && groups[j] === '0') j++;
    if (j - i > len) { best = i; len = j - i; }
    i = j;
  }
  return best < 0 ? groups.join(':') : `${groups.slice(0, best).join(':')}::${groups.slice(best + len).join(':')}`;
}

type Summary = Omit<PacketSummary, 'index' | 'time_us' | 'length' | 'captured'>;
const blank = (protocol: string, info = ''): Summary => ({ protocol, src: null, dst: null, src_port: null, dst_port: null, tcp_flags: null, info });

/** The transport layer (protocol number `proto`) at `at`. */
function transport(b: Uint8Array, at: number, proto: number, src: string, dst: string, v6: boolean): Summary {
  const s: Summary = { ...blank(''), src, dst };
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (proto === 6) {
    s.protocol = 'TCP';
    if (at + 14 <= b.length) {
      s.src_port = v.getUint16(at); s.dst_port = v.getUint16(at + 2);
      const flags = b[at + 13];
      s.tcp_flags = TCP_FLAG_NAMES.filter(([bit]) => flags & bit).map(([, n]) => n).join(' ');
    }
  } else if (proto === 17) {
    s.protocol = 'UDP';
    if (at + 4 <= b.length) { s.src_port = v.getUint16(at); s.dst_port = v.getUint16(at + 2); }
  } else if (proto === 1 || proto === 58) {
    s.protocol = proto === 1 ? 'ICMP' : 'ICMPv6';
    if (at < b.length) s.info = (proto === 1 ? ICMP_TYPES : ICMP6_TYPES)[b[at]] ?? `type ${b[at]}`;
  } else {
    s.protocol = v6 ? 'IPv6' : 'IPv4';
    s.info = `protocol ${proto}`;
  }
  return s;
}

function network(b: Uint8Array, at: number, ethertype: number): Summary {
  if (ethertype === 0x0800 && at + 20 <= b.length) {
    const ihl = (b[at] & 0x0f) * 4;
    const src = Array.from(b.subarray(at + 12, at + 16)).join('.');
    const dst = Array.from(b.subarray(at + 16, at + 20)).join('.');
    const fragment = ((b[at + 6] & 0x1f) << 8 | b[at + 7]) !== 0;
    if (fragment) return { ...blank('IPv4', 'fragment'), src, dst };
    return transport(b, at + ihl, b[at + 9], src, dst, false);
  }
  if (ethertype === 0x86dd && at + 40 <= b.length) {
    let next = b[at + 6];
    let p = at + 40;
    // Hop-by-hop, routing and destination options headers: 8 * (len + 1) bytes each.
    while ((next === 0 || next === 43 || next === 60) && p + 2 <= b.length) { const n = b[p]; p += (b[p + 1] + 1) * 8; next = n; }
    return transport(b, p, next, ipv6Text(b, at + 8), ipv6Text(b, at + 24), true);
  }
  if (ethertype === 0x0806 && at + 28 <= b.length) {
    const op = (b[at + 6] << 8) | b[at + 7];
    const sender = Array.from(b.subarray(at + 14, at + 18)).join('.');
    const target = Array.from(b.subarray(at + 24, at + 28)).join('.');
    return { ...blank('ARP', op === 1 ? `who has ${target}? tell ${sender}` : op === 2 ? `${sender} is at ${Array.from(b.subarray(at + 8, at + 14), (x) => x.toString(16).padStart(2, '0')).join(':')}` : `operation ${op}`), src: sender, dst: target };
  }
  return blank(`0x${ethertype.toString(16).padStart(4, '0')}`, 'ethertype');
}

/** Ethernet (with 802.1Q tags) at `at`. */
function ethernet(b: Uint8Array, at: number): Summary {
  let p = at + 12;
  if (p + 2 > b.length) return blank('Ethernet', 'cut short');
  let type = (b[p] << 8) | b[p + 1];
  while ((type === 0x8100 || type === 0x88a8) && p + 6 <= b.length) { p += 4; type = (b[p] << 8) | b[p + 1]; }
  return network(b, p + 2, type);
}

/** A summary of one packet's captured bytes under `linktype`. */
export function summarise(b: Uint8Array, linktype: number, littleEndian: boolean): Summary {
  switch (linktype) {
    case 1: return ethernet(b, 0);
    case 113: return b.length >= 16 ? network(b, 16, (b[14] << 8) | b[15]) : blank('SLL', 'cut short');
    case 276: return b.length >= 20 ? network(b, 20, (b[0] << 8) | b[1]) : blank('SLL2', 'cut short');
    case 0: {
      // BSD loopback: the address family in the capturing host's byte order (2 = IPv4; 24, 28 or 30 = IPv6).
      if (b.length < 4) return blank('NULL', 'cut short');
      const family = new DataView(b.buffer, b.byteOffset, 4).getUint32(0, littleEndian);
      return network(b, 4, family === 2 ? 0x0800 : 0x86dd);
    }
    case 12: case 14: case 101: case 228: case 229:
      return b.length ? network(b, 0, (b[0] >> 4) === 6 ? 0x86dd : 0x0800) : blank('IP', 'empty');
    default: return blank(`link ${linktype}`, 'link type not decoded');
  }
}

export interface PacketPage {
  header: PcapHeader;
  packets: PacketSummary[];
  /** Packets in the file (all records walked, only the page decoded). */
  total: number;
  /** The last record was cut short: the capture was still being written, or the file is damaged. */
  cut: boolean;
}

/**
 * Packets `offset` to `offset + limit` of a pcap file's bytes, and the count of all. Only record headers are read
 * outside the page, so the cost is one pass over the bytes (bounded by the file's size limit) plus `limit` decodes.
 */
export function decodePcap(b: Uint8Array, offset: number, limit: number): PacketPage {
  const header = readPcapHeader(b);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const packets: PacketSummary[] = [];
  let at = GLOBAL_HEADER;
  let index = 0;
  let cut = false;
  while (at < b.length) {
    if (at + RECORD_HEADER > b.length) { cut = true; break; }
    const sec = v.getUint32(at, header.littleEndian);
    const frac = v.getUint32(at + 4, header.littleEndian);
    const incl = v.getUint32(at + 8, header.littleEndian);
    const orig = v.getUint32(at + 12, header.littleEndian);
    if (incl > Math.max(header.snaplen, 262_144)) throw new PcapFormatError(`packet ${index + 1} claims ${incl} bytes, more than the snap length: the file is damaged`);
    if (at + RECORD_HEADER + incl > b.length) { cut = true; break; }
    if (index >= offset && packets.length < limit) {
      const data = b.subarray(at + RECORD_HEADER, at + RECORD_HEADER + incl);
      packets.push({
        index, time_us: sec * 1e6 + (header.nanos ? Math.floor(frac / 1000) : frac), length: orig, captured: incl,
        ...summarise(data, header.linktype, header.littleEndian),
      });
    }
    index++;
    at += RECORD_HEADER + incl;
  }
  return { header, packets, total: index, cut };
}
