import { isLoopback } from './proc/net-address.js';
import type { SocketSnapshot } from './socket-snapshot.js';

/** One listening socket as GET /api/net answers it. */
export interface ListeningPort {
  protocol: 'tcp' | 'udp';
  family: 4 | 6;
  address: string;
  port: number;
  inode: number;
  /** Reachable from other machines: bound to a wildcard or an outside address, not to loopback only. */
  visible: boolean;
  /** The process's real uid when it is known, else the socket's owner. */
  uid: number;
  user: string;
  /** The process the Stop and Force buttons act on: the lowest pid holding the socket; null when no process could be read. */
  pid: number | null;
  /** Every process holding the socket (a forked server's workers share it). */
  pids: number[];
  name: string | null;
  command: string | null;
  /** With `pid`, names one process: killport refuses a pid whose start differs (it was reused). */
  start_ticks: number | null;
  /** Set on Vigil's own sockets, which have no buttons: what they are. */
  own: string | null;
  /** Vigil may signal the process itself (its own user's, or any when Vigil runs as root). */
  can_signal: boolean;
  /** For a listener of another user: the command that stops it with privileges, to copy (by pid, or by port when the pid is hidden). */
  elevated_command: string | null;
}

export interface PortFilter {
  /** A port or pid (digits), else text matched in the process name, command line, user and address (any case). */
  q?: string;
  /** Only sockets other machines can reach. */
  visible?: boolean;
  protocol?: 'tcp' | 'udp';
  limit: number;
}

export interface Identity {
  pid: number;
  uid: number;
  /** The control plane's port: Vigil's socket there is "this dashboard". */
  dashboardPort: number | undefined;
}

/**
 * What stops another user's listener with privileges: `kill` of the pid when Vigil could see it; otherwise (Vigil is
 * not root, so that user's descriptors were hidden) the listener of that port as `lsof` finds it with privileges.
 */
function elevatedCommand(pid: number | null, protocol: 'tcp' | 'udp', port: number, mine: boolean): string | null {
  if (pid !== null) return `sudo kill -TERM ${pid}`;
  if (mine) return null;
  return `sudo kill -TERM $(sudo lsof -t -i${protocol.toUpperCase()}:${port}${protocol === 'tcp' ? ' -sTCP:LISTEN' : ''})`;
}

/** Every listening socket of the snapshot, sorted by port, then protocol and address. */
export function listeningPorts(snap: SocketSnapshot, me: Identity): ListeningPort[] {
  const rows: ListeningPort[] = [];
  for (const s of snap.sockets) {
    if (!s.listening) continue;
    const pids = snap.owners.get(s.inode) ?? [];
    const facts = pids.length ? snap.facts.get(pids[0]) : undefined;
    const uid = facts?.uid ?? s.uid;
    const pid = facts ? pids[0] : null;
    const own = pid !== null && pids.includes(me.pid)
      ? (s.localPort === me.dashboardPort && s.protocol === 'tcp' ? 'Vigil: this dashboard' : 'Vigil')
      : null;
    const canSignal = pid !== null && own === null && (me.uid === 0 || uid === me.uid);
    rows.push({
      protocol: s.protocol, family: s.family, address: s.localAddress, port: s.localPort, inode: s.inode,
      visible: !isLoopback(s.localAddress), uid, user: snap.userName(uid),
      pid, pids, name: facts?.name ?? null, command: facts?.command ?? null, start_ticks: facts?.startTicks ?? null,
      own, can_signal: canSignal,
      elevated_command: own !== null || canSignal ? null : elevatedCommand(pid, s.protocol, s.localPort, uid === me.uid),
    });
  }
  return rows.sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol) || a.family - b.family || a.address.localeCompare(b.address));
}

/** The rows a filter keeps, and how many matched before the limit. */
export function filterPorts(rows: readonly ListeningPort[], f: PortFilter): { ports: ListeningPort[]; matched: number } {
  const q = f.q?.trim().toLowerCase() ?? '';
  const digits = /^\d+$/.test(q) ? Number(q) : undefined;
  const kept = rows.filter((r) => {
    if (f.visible && !r.visible) return false;
    if (f.protocol && r.protocol !== f.protocol) return false;
    if (!q) return true;
    if (digits !== undefined) return r.port === digits || r.pids.includes(digits);
    return [r.name, r.command, r.user, r.address, r.own].some((t) => t?.toLowerCase().includes(q));
  });
  return { ports: kept.slice(0, f.limit), matched: kept.length };
}
