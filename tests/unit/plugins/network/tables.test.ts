// The ports and connections tables cut from one socket snapshot: which row is Vigil's own and has no buttons,
// another user's row offers the elevated command, the filters (port or pid by digits, text elsewhere, the
// network-visible toggle), connections grouped by state with the busiest remotes, and the row limit.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allConnections, viewConnections } from '../../../../plugins/network/connections.js';
import { filterPorts, listeningPorts } from '../../../../plugins/network/listening-ports.js';
import type { SocketEntry } from '../../../../plugins/network/proc/socket-table.js';
import type { SocketSnapshot } from '../../../../plugins/network/socket-snapshot.js';

const sock = (o: Partial<SocketEntry>): SocketEntry => ({
  protocol: 'tcp', family: 4, localAddress: '0.0.0.0', localPort: 0, remoteAddress: '0.0.0.0', remotePort: 0, state: 'LISTEN', listening: true, uid: 0, inode: 1, ...o,
});
const fact = (pid: number, name: string, uid: number) => [pid, { pid, name, command: `/usr/bin/${name} --serve`, uid, startTicks: pid * 10 }] as const;

const snap: SocketSnapshot = {
  at: 0, hidden: 0, partial: false, truncated: false,
  sockets: [
    sock({ localPort: 9095, localAddress: '127.0.0.1', inode: 10 }),
    sock({ localPort: 22, inode: 11 }),
    sock({ localPort: 5432, localAddress: '127.0.0.1', inode: 12 }),
    sock({ localPort: 80, family: 6, localAddress: '::', inode: 13 }),
    sock({ protocol: 'udp', localPort: 53, localAddress: '127.0.0.53', state: 'UNCONN', inode: 14 }),
    sock({ localPort: 8080, inode: 15, uid: 33 }),
    sock({ localPort: 41000, localAddress: '10.0.0.2', remoteAddress: '10.0.0.9', remotePort: 443, state: 'ESTABLISHED', listening: false, inode: 20 }),
    sock({ localPort: 41001, localAddress: '10.0.0.2', remoteAddress: '10.0.0.9', remotePort: 443, state: 'ESTABLISHED', listening: false, inode: 21 }),
    sock({ localPort: 41002, localAddress: '10.0.0.2', remoteAddress: '1.1.1.1', remotePort: 53, state: 'TIME_WAIT', listening: false, inode: 0 }),
    sock({ protocol: 'udp', localPort: 41003, localAddress: '10.0.0.2', remoteAddress: '0.0.0.0', remotePort: 0, state: 'UNCONN', listening: false, inode: 22 }),
  ],
  owners: new Map([[10, [500]], [11, [300]], [12, [400, 401]], [13, [600]], [14, [700]], [20, [800]], [21, [800]]]),
  facts: new Map([fact(500, 'node', 1000), fact(300, 'sshd', 0), fact(400, 'postgres', 1000), fact(401, 'postgres', 1000), fact(600, 'nginx', 33), fact(700, 'resolved', 101), fact(800, 'curl', 1000)]),
  userName: (uid) => ({ 0: 'root', 33: 'www-data', 101: 'systemd-resolve', 1000: 'ann' } as Record<number, string>)[uid] ?? String(uid),
};
const me = { pid: 500, uid: 1000, dashboardPort: 9095 };

test('ports: sorted by port; the own socket is labelled with no buttons; other users get the elevated command', () => {
  const rows = listeningPorts(snap, me);
  assert.equal(rows.map((r) => r.port), [22, 53, 80, 5432, 8080, 9095]);
  const own = rows.find((r) => r.port === 9095)!;
  assert.equal([own.own, own.can_signal, own.elevated_command], ['Vigil: this dashboard', false, null]);
  const pg = rows.find((r) => r.port === 5432)!;
  assert.equal([pg.pid, pg.pids, pg.user, pg.can_signal, pg.elevated_command, pg.visible, pg.start_ticks], [400, [400, 401], 'ann', true, null, false, 4000]);
  const ssh = rows.find((r) => r.port === 22)!;
  assert.equal([ssh.user, ssh.can_signal, ssh.elevated_command, ssh.visible], ['root', false, 'sudo kill -TERM 300', true]);
  const nobody = rows.find((r) => r.port === 8080)!;
  assert.equal([nobody.pid, nobody.user, nobody.name, nobody.can_signal], [null, 'www-data', null, false], 'no process seen: no button');
  assert.is(nobody.elevated_command, 'sudo kill -TERM $(sudo lsof -t -iTCP:8080 -sTCP:LISTEN)', 'the command finds the listener by its port');
  const resolved = rows.find((r) => r.port === 53)!;
  assert.is(resolved.elevated_command, 'sudo kill -TERM 700', 'another user\'s process seen: by its pid');
  // As root every process can be signalled, but the own socket still cannot.
  const asRoot = listeningPorts(snap, { ...me, uid: 0 });
  assert.ok(asRoot.find((r) => r.port === 22)!.can_signal);
  assert.not.ok(asRoot.find((r) => r.port === 9095)!.can_signal);
});

test('ports: digits match a port or a pid exactly, text matches name, command, user or address; visible-only; limit', () => {
  const rows = listeningPorts(snap, me);
  const ports = (f: Parameters<typeof filterPorts>[1]) => filterPorts(rows, f).ports.map((r) => r.port);
  assert.equal(ports({ q: '22', limit: 100 }), [22]);
  assert.equal(ports({ q: '401', limit: 100 }), [5432], 'a second pid of a shared socket');
  assert.equal(ports({ q: 'NGINX', limit: 100 }), [80]);
  assert.equal(ports({ q: 'www-data', limit: 100 }), [80, 8080]);
  assert.equal(ports({ q: '127.0.0', limit: 100 }), [53, 5432, 9095]);
  assert.equal(ports({ visible: true, limit: 100 }), [22, 80, 8080]);
  assert.equal(ports({ protocol: 'udp', limit: 100 }), [53]);
  const cut = filterPorts(rows, { limit: 2 });
  assert.equal([cut.ports.length, cut.matched], [2, 6]);
});

test('connections: no listeners and no unconnected UDP; by state; busiest remotes; state and text filters', () => {
  const all = allConnections(snap);
  assert.equal(all.map((c) => c.local_port).sort(), [41000, 41001, 41002]);
  const v = viewConnections(all, { limit: 100 });
  assert.equal(v.states, [{ state: 'ESTABLISHED', count: 2 }, { state: 'TIME_WAIT', count: 1 }]);
  assert.equal(v.busiest, [{ address: '10.0.0.9', connections: 2, processes: ['curl'] }, { address: '1.1.1.1', connections: 1, processes: [] }]);
  assert.equal(v.connections.map((c) => c.state), ['ESTABLISHED', 'ESTABLISHED', 'TIME_WAIT'], 'established first');
  const tw = viewConnections(all, { state: 'TIME_WAIT', limit: 100 });
  assert.equal([tw.matched, tw.states.length], [1, 2], 'the counts by state ignore the state filter');
  assert.equal(viewConnections(all, { q: 'curl', limit: 100 }).matched, 2);
  assert.equal(viewConnections(all, { q: '443', limit: 1 }).connections.length, 1);
});

test.run();
