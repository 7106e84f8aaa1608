// The pcap reader over files built byte by byte: each link type tcpdump writes (Ethernet with a VLAN tag, Linux
// cooked v1 and v2, BSD loopback, raw IP), IPv4 and IPv6 (with an extension header), TCP flags, UDP, ICMP, ARP; both
// byte orders and nanosecond files; paging; a record cut short; pcapng and damaged files refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodePcap, PcapFormatError, readPcapHeader } from '../../../../plugins/network/capture/pcap-decode.js';

function pcap(linktype: number, packets: { data: Buffer; sec?: number; frac?: number; orig?: number }[], o: { le?: boolean; nanos?: boolean } = {}): Buffer {
  const le = o.le ?? true;
  const head = Buffer.alloc(24);
  const u32 = (b: Buffer, v: number, at: number) => (le ? b.writeUInt32LE(v, at) : b.writeUInt32BE(v, at));
  u32(head, o.nanos ? 0xa1b23c4d : 0xa1b2c3d4, 0);
  (le ? head.writeUInt16LE.bind(head) : head.writeUInt16BE.bind(head))(2, 4);
  (le ? head.writeUInt16LE.bind(head) : head.writeUInt16BE.bind(head))(4, 6);
  u32(head, 65535, 16);
  u32(head, linktype, 20);
  const records = packets.map((p) => {
    const r = Buffer.alloc(16);
    u32(r, p.sec ?? 1_700_000_000, 0);
    u32(r, p.frac ?? 0, 4);
    u32(r, p.data.length, 8);
    u32(r, p.orig ?? p.data.length, 12);
    return Buffer.concat([r, p.data]);
  });
  return Buffer.concat([head, ...records]);
}

const ipv4 = (proto: number, src: number[], dst: number[], payload: Buffer, fragment = 0) => {
  const h = Buffer.alloc(20);
  h[0] = 0x45; h.writeUInt16BE(20 + payload.length, 2); h.writeUInt16BE(fragment, 6); h[8] = 64; h[9] = proto;
  Buffer.from(src).copy(h, 12); Buffer.from(dst).copy(h, 16);
  return Buffer.concat([h, payload]);
};
const tcp = (sport: number, dport: number, flags: number) => {
  const t = Buffer.alloc(20);
  t.writeUInt16BE(sport, 0); t.writeUInt16BE(dport, 2); t[12] = 0x50; t[13] = flags;
  return t;
};
const udp = (sport: number, dport: number) => { const u = Buffer.alloc(8); u.writeUInt16BE(sport, 0); u.writeUInt16BE(dport, 2); return u; };
const ether = (type: number, payload: Buffer, vlan = false) => {
  const e = Buffer.alloc(vlan ? 18 : 14);
  if (vlan) { e.writeUInt16BE(0x8100, 12); e.writeUInt16BE(5, 14); e.writeUInt16BE(type, 16); } else e.writeUInt16BE(type, 12);
  return Buffer.concat([e, payload]);
};
const ipv6 = (next: number, payload: Buffer, withHopByHop = false) => {
  const h = Buffer.alloc(40);
  h[0] = 0x60; h[6] = withHopByHop ? 0 : next; h[7] = 64;
  h[8] = 0x20; h[9] = 0x01; h[10] = 0x0d; h[11] = 0xb8; h[23] = 1; h[39] = 1; h[24] = 0xfe; h[25] = 0x80;
  const ext = withHopByHop ? Buffer.from([next, 0, 0, 0, 0, 0, 0, 0]) : Buffer.alloc(0);
  return Buffer.concat([h, ext, payload]);
};

test('Ethernet (and a VLAN tag): IPv4 TCP with flags, UDP, ICMP, a fragment, ARP, an unknown ethertype', () => {
  const file = pcap(1, [
    { data: ether(0x0800, ipv4(6, [10, 0, 0, 1], [10, 0, 0, 2], tcp(40000, 443, 0x12))), sec: 10, frac: 250 },
    { data: ether(0x0800, ipv4(17, [10, 0, 0, 1], [8, 8, 8, 8], udp(5353, 53)), true), orig: 1500 },
    { data: ether(0x0800, ipv4(1, [10, 0, 0, 1], [10, 0, 0, 2], Buffer.from([8, 0, 0, 0]))) },
    { data: ether(0x0800, ipv4(6, [10, 0, 0, 1], [10, 0, 0, 2], Buffer.alloc(8), 0x00b9)) },
    { data: ether(0x0806, Buffer.from([0, 1, 8, 0, 6, 4, 0, 1, 1, 2, 3, 4, 5, 6, 10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 10, 0, 0, 2])) },
    { data: ether(0x88cc, Buffer.alloc(20)) },
  ]);
  const page = decodePcap(file, 0, 100);
  assert.is(page.total, 6);
  assert.is(page.cut, false);
  const [syn, dns, ping, frag, arp, lldp] = page.packets;
  assert.equal({ ...syn }, { index: 0, time_us: 10_000_250, length: syn.captured, captured: syn.captured, protocol: 'TCP', src: '10.0.0.1', dst: '10.0.0.2', src_port: 40000, dst_port: 443, tcp_flags: 'SYN ACK', info: '' });
  assert.equal([dns.protocol, dns.dst, dns.src_port, dns.dst_port, dns.length, dns.tcp_flags], ['UDP', '8.8.8.8', 5353, 53, 1500, null]);
  assert.equal([ping.protocol, ping.info], ['ICMP', 'echo request']);
  assert.equal([frag.protocol, frag.info, frag.src_port], ['IPv4', 'fragment', null]);
  assert.equal([arp.protocol, arp.info], ['ARP', 'who has 10.0.0.2? tell 10.0.0.1']);
  assert.equal([lldp.protocol, lldp.info], ['0x88cc', 'ethertype']);
});

test('Linux cooked v1 and v2, BSD loopback, raw IP; IPv6 with a hop-by-hop header', () => {
  const sll = (type: number, payload: Buffer) => { const h = Buffer.alloc(16); h.writeUInt16BE(type, 14); return Buffer.concat([h, payload]); };
  const sll2 = (type: number, payload: Buffer) => { const h = Buffer.alloc(20); h.writeUInt16BE(type, 0); return Buffer.concat([h, payload]); };
  const six = ipv6(17, udp(546, 547), true);
  assert.equal(decodePcap(pcap(113, [{ data: sll(0x86dd, six) }]), 0, 1).packets[0], {
    index: 0, time_us: 1_700_000_000_000_000, length: 16 + 40 + 8 + 8, captured: 72, protocol: 'UDP', src: '2001:db8::1', dst: 'fe80::1', src_port: 546, dst_port: 547, tcp_flags: null, info: '',
  });
  assert.is(decodePcap(pcap(276, [{ data: sll2(0x0800, ipv4(6, [1, 2, 3, 4], [5, 6, 7, 8], tcp(1, 2, 0x11))) }]), 0, 1).packets[0].tcp_flags, 'ACK FIN');
  const loop = Buffer.alloc(4); loop.writeUInt32LE(2, 0);
  assert.is(decodePcap(pcap(0, [{ data: Buffer.concat([loop, ipv4(6, [127, 0, 0, 1], [127, 0, 0, 1], tcp(5, 6, 0x04))]) }]), 0, 1).packets[0].tcp_flags, 'RST');
  const raw = decodePcap(pcap(101, [{ data: ipv6(58, Buffer.from([128, 0, 0, 0])) }]), 0, 1).packets[0];
  assert.equal([raw.protocol, raw.info, raw.src], ['ICMPv6', 'echo request', '2001:db8::1']);
  assert.is(decodePcap(pcap(147, [{ data: Buffer.alloc(4) }]), 0, 1).packets[0].protocol, 'link 147');
});

test('big-endian and nanosecond files; paging walks headers only; a record cut short is reported', () => {
  const many = Array.from({ length: 30 }, (_, i) => ({ data: ether(0x0800, ipv4(6, [10, 0, 0, 1], [10, 0, 0, 2], tcp(1000 + i, 80, 0x10))), frac: 123_456_789 }));
  const be = pcap(1, many, { le: false, nanos: true });
  const header = readPcapHeader(be);
  assert.equal([header.littleEndian, header.nanos, header.linktype], [false, true, 1]);
  const page = decodePcap(be, 10, 5);
  assert.is(page.total, 30);
  assert.equal(page.packets.map((p) => p.index), [10, 11, 12, 13, 14]);
  assert.equal(page.packets.map((p) => p.src_port), [1010, 1011, 1012, 1013, 1014]);
  assert.is(page.packets[0].time_us, 1_700_000_000_000_000 + 123_456);
  const cut = decodePcap(be.subarray(0, be.length - 7), 0, 100);
  assert.is(cut.total, 29);
  assert.is(cut.cut, true);
  assert.is(decodePcap(be.subarray(0, 24), 0, 10).total, 0, 'a header alone is an empty capture');
});

test('pcapng, a foreign file, a short file and a record larger than any snap length are refused', () => {
  const ng = Buffer.alloc(32); ng.writeUInt32BE(0x0a0d0d0a, 0);
  assert.throws(() => decodePcap(ng, 0, 1), (e: unknown) => e instanceof PcapFormatError && /pcapng/.test((e as Error).message));
  assert.throws(() => decodePcap(Buffer.from('GIF89a and then some more bytes'), 0, 1), (e: unknown) => e instanceof PcapFormatError);
  assert.throws(() => decodePcap(Buffer.alloc(10), 0, 1), (e: unknown) => e instanceof PcapFormatError);
  const bad = pcap(1, [{ data: Buffer.alloc(60) }]);
  bad.writeUInt32LE(10_000_000, 24 + 8);
  assert.throws(() => decodePcap(bad, 0, 1), (e: unknown) => e instanceof PcapFormatError && /damaged/.test((e as Error).message));
});

test.run();
