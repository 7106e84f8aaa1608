// /proc/net/{tcp,udp}{,6} text to sockets: hex addresses in the host's byte order (this machine's), states, which
// sockets listen (TCP LISTEN, unconnected UDP), the line bound; and against the kernel: this process's own listener.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:net';
import { createSocket } from 'node:dgram';
import { endianness } from 'node:os';
import { formatIpv6, isLoopback, parseProcAddress } from '../../../../plugins/network/proc/net-address.js';
import { parseSocketTable, readSockets } from '../../../../plugins/network/proc/socket-table.js';
import { findSocketOwners, holdsSocket } from '../../../../plugins/network/proc/socket-owners.js';

const LE = endianness() === 'LE';
/** An IPv4 address as /proc writes it on this machine. */
const hex4 = (a: string) => {
  const bytes = a.split('.').map(Number);
  return (LE ? bytes.reverse() : bytes).map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
};
const port = (p: number) => p.toString(16).padStart(4, '0').toUpperCase();

test('IPv4 and IPv6 addresses decode, compressed as RFC 5952 says, v4-mapped as dotted', () => {
  assert.equal(parseProcAddress(`${hex4('127.0.0.1')}:${port(8080)}`), { address: '127.0.0.1', port: 8080, family: 4 });
  assert.equal(parseProcAddress(`${hex4('0.0.0.0')}:0016`), { address: '0.0.0.0', port: 22, family: 4 });
  const six = (bytes: number[]) => {
    let out = '';
    for (let w = 0; w < 16; w += 4) {
      const word = bytes.slice(w, w + 4);
      out += (LE ? word.reverse() : word).map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
    }
    return out;
  };
  const loop6 = [...Array(15).fill(0), 1];
  assert.equal(parseProcAddress(`${six(loop6)}:0050`), { address: '::1', port: 80, family: 6 });
  const mapped = [...Array(10).fill(0), 0xff, 0xff, 10, 1, 2, 3];
  assert.is(parseProcAddress(`${six(mapped)}:0050`)!.address, '::ffff:10.1.2.3');
  assert.is(formatIpv6([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]), '2001:db8::1');
  assert.is(formatIpv6([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]), '2001:db8:0:1::1', 'the longer zero run is the one compressed');
  assert.is(formatIpv6([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]), '2001:db8:0:1:1:1:1:1', 'a lone zero group is not compressed');
  assert.is(formatIpv6(Array(16).fill(0)), '::');
  assert.is(parseProcAddress('zz:0050'), undefined);
  assert.is(parseProcAddress(`${hex4('1.2.3.4')}:1FFFF`), undefined, 'a port past 65535');
  for (const a of ['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopback(a), a);
  for (const a of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1']) assert.not.ok(isLoopback(a), a);
});

test('a table: listening and connected TCP, bound and connected UDP; odd lines skipped; the line bound holds', async () => {
  const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
  const line = (local: string, remote: string, st: string, uid: number, inode: number) =>
    `   0: ${local} ${remote} ${st} 00000000:00000000 00:00000000 00000000  ${uid}        0 ${inode} 1 0000000000000000 100 0 0 10 0\n`;
  const tcp = header
    + line(`${hex4('127.0.0.1')}:${port(5432)}`, `${hex4('0.0.0.0')}:0000`, '0A', 105, 111)
    + line(`${hex4('10.0.0.2')}:${port(40000)}`, `${hex4('10.0.0.9')}:${port(443)}`, '01', 1000, 222)
    + line(`${hex4('10.0.0.2')}:${port(40001)}`, `${hex4('10.0.0.9')}:${port(443)}`, '06', 0, 0)
    + 'garbage line\n';
  const t = await parseSocketTable(tcp, 'tcp');
  assert.is(t.truncated, false);
  assert.equal(t.sockets.map((s) => [s.localPort, s.state, s.listening, s.uid, s.inode]), [
    [5432, 'LISTEN', true, 105, 111], [40000, 'ESTABLISHED', false, 1000, 222], [40001, 'TIME_WAIT', false, 0, 0],
  ]);
  assert.is(t.sockets[1].remoteAddress, '10.0.0.9');
  const udp = header
    + line(`${hex4('0.0.0.0')}:${port(53)}`, `${hex4('0.0.0.0')}:0000`, '07', 0, 333)
    + line(`${hex4('10.0.0.2')}:${port(5000)}`, `${hex4('10.0.0.1')}:${port(53)}`, '01', 0, 444);
  assert.equal((await parseSocketTable(udp, 'udp')).sockets.map((s) => [s.state, s.listening]), [['UNCONN', true], ['ESTABLISHED', false]]);
  const bounded = await parseSocketTable(tcp, 'tcp', 2);
  assert.is(bounded.sockets.length, 2);
  assert.is(bounded.truncated, true);
});

test('against the kernel: this process\'s TCP and UDP listeners are read with their inode, and their owner is this pid', async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const udp = createSocket('udp6');
  await new Promise<void>((r) => udp.bind(0, '::1', r));
  try {
    const tcpPort = (server.address() as { port: number }).port;
    const udpPort = udp.address().port;
    const { sockets } = await readSockets('/');
    const t = sockets.find((s) => s.protocol === 'tcp' && s.localPort === tcpPort && s.listening);
    const u = sockets.find((s) => s.protocol === 'udp' && s.localPort === udpPort && s.listening);
    assert.ok(t && u, 'both listed');
    assert.is(t!.localAddress, '127.0.0.1');
    assert.is(u!.localAddress, '::1');
    assert.is(u!.family, 6);
    const walk = await findSocketOwners('/', new Set([t!.inode, u!.inode]), 10_000);
    assert.equal(walk.owners.get(t!.inode), [process.pid]);
    assert.equal(walk.owners.get(u!.inode), [process.pid]);
    assert.is(walk.partial, false);
    assert.is(await holdsSocket('/', process.pid, t!.inode, 5000), true);
    assert.is(await holdsSocket('/', process.pid, 1, 5000), false);
    assert.is(await holdsSocket('/', 2 ** 22 + 7, t!.inode, 5000), 'gone');
    // A budget already spent stops the walk at once and says so.
    const cut = await findSocketOwners('/', undefined, -1);
    assert.is(cut.partial, true);
  } finally {
    server.close();
    udp.close();
  }
});

test.run();
