import { isWildcard } from './proc/net-address.js';
import type { SocketSnapshot } from './socket-snapshot.js';

/** One connection as GET /api/connections answers it. */
export interface Connection {
  protocol: 'tcp' | 'udp';
  family: 4 | 6;
  local_address: string;
  local_port: number;
  remote_address: string;
  remote_port: number;
  state: string;
  uid: number;
  user: string;
  pid: number | null;
  name: string | null;
  command: string | null;
}

export interface ConnectionFilter {
  /** Text matched in addresses, ports, state, process name, command and user (any case). */
  q?: string;
  protocol?: 'tcp' | 'udp';
  state?: string;
  limit: number;
}

export interface ConnectionView {
  connections: Connection[];
  /** Connections that matched the filter, before the limit. */
  matched: number;
  /** Every connection by state (of those matching the filter but the state). */
  states: { state: string; count: number }[];
  /** The remote addresses with the most connections (of those matching), at most BUSIEST_MAX. */
  busiest: { address: string; connections: number; processes: string[] }[];
}

export const BUSIEST_MAX = 10;

/** Every socket that is not listening: TCP in any state but LISTEN, and connected UDP. */
export function allConnections(snap: SocketSnapshot): Connection[] {
  const out: Connection[] = [];
  for (const s of snap.sockets) {
    if (s.listening) continue;
    // An unconnected UDP socket bound to one address (a DNS stub's): no peer, so no connection.
    if (s.protocol === 'udp' && s.remotePort === 0) continue;
    const pids = snap.owners.get(s.inode) ?? [];
    const facts = pids.length ? snap.facts.get(pids[0]) : undefined;
    const uid = facts?.uid ?? s.uid;
    out.push({
      protocol: s.protocol, family: s.family, local_address: s.localAddress, local_port: s.localPort,
      remote_address: s.remoteAddress, remote_port: s.remotePort, state: s.state, uid, user: snap.userName(uid),
      pid: facts ? pids[0] : null, name: facts?.name ?? null, command: facts?.command ?? null,
    });
  }
  return out;
}

const STATE_ORDER = ['ESTABLISHED', 'SYN_SENT', 'SYN_RECV', 'NEW_SYN_RECV', 'FIN_WAIT1', 'FIN_WAIT2', 'CLOSE_WAIT', 'LAST_ACK', 'CLOSING', 'TIME_WAIT', 'CLOSE'];
const stateRank = (s: string) => { const i = STATE_ORDER.indexOf(s); return i < 0 ? STATE_ORDER.length : i; };

/** Filter, group by state, find the busiest remotes, and cut to the limit (established first, then by remote). */
export function viewConnections(all: readonly Connection[], f: ConnectionFilter): ConnectionView {
  const q = f.q?.trim().toLowerCase() ?? '';
  const matches = (c: Connection) => !q || [
    c.local_address, c.remote_address, String(c.local_port), String(c.remote_port), c.state, c.name, c.command, c.user, c.pid === null ? null : String(c.pid),
  ].some((t) => t?.toLowerCase().includes(q));
  const base = all.filter((c) => (!f.protocol || c.protocol === f.protocol) && matches(c));
  const byState = new Map<string, number>();
  for (const c of base) byState.set(c.state, (byState.get(c.state) ?? 0) + 1);
  const kept = f.state ? base.filter((c) => c.state === f.state) : base;
  const byRemote = new Map<string, { connections: number; processes: Set<string> }>();
  for (const c of kept) {
    if (isWildcard(c.remote_address)) continue;
    const r = byRemote.get(c.remote_address) ?? { connections: 0, processes: new Set<string>() };
    r.connections++;
    if (c.name && r.processes.size < 5) r.processes.add(c.name);
    byRemote.set(c.remote_address, r);
  }
  const sorted = [...kept].sort((a, b) => stateRank(a.state) - stateRank(b.state) || a.remote_address.localeCompare(b.remote_address) || a.remote_port - b.remote_port);
  return {
    connections: sorted.slice(0, f.limit),
    matched: kept.length,
    states: [...byState].map(([state, count]) => ({ state, count })).sort((a, b) => stateRank(a.state) - stateRank(b.state)),
    busiest: [...byRemote].map(([address, r]) => ({ address, connections: r.connections, processes: [...r.processes].sort() }))
      .sort((a, b) => b.connections - a.connections || a.address.localeCompare(b.address)).slice(0, BUSIEST_MAX),
  };
}
