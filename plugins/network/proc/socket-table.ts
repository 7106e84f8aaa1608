import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { parseProcAddress } from './net-address.js';

export type SocketProtocol = 'tcp' | 'udp';

/** TCP states by the kernel's code (include/net/tcp_states.h); UDP uses ESTABLISHED for connected and CLOSE for bound sockets. */
const TCP_STATES: Record<number, string> = {
  1: 'ESTABLISHED', 2: 'SYN_SENT', 3: 'SYN_RECV', 4: 'FIN_WAIT1', 5: 'FIN_WAIT2', 6: 'TIME_WAIT', 7: 'CLOSE',
  8: 'CLOSE_WAIT', 9: 'LAST_ACK', 10: 'LISTEN', 11: 'CLOSING', 12: 'NEW_SYN_RECV',
};
const TCP_LISTEN = 10;
const UDP_CLOSE = 7;

/** One socket of /proc/net/{tcp,tcp6,udp,udp6}. */
export interface SocketEntry {
  protocol: SocketProtocol;
  family: 4 | 6;
  localAddress: string;
  localPort: number;
  remoteAddress: string;
  remotePort: number;
  /** TCP's state name; for UDP `UNCONN` (bound, not connected) or `ESTABLISHED` (connected). */
  state: string;
  /** Whether it waits for peers: a TCP LISTEN socket, or a bound and unconnected UDP socket (as `ss -l` shows them). */
  listening: boolean;
  /** The socket's owner as the kernel records it (the creating process's effective uid). */
  uid: number;
  /** The socket's inode: `socket:[inode]` is what /proc/<pid>/fd links to. 0 for a socket no process holds (TIME_WAIT). */
  inode: number;
}

/**
 * Lines read from one file at most: a server with more sockets than this is listed in part (`truncated`). Four files
 * of this many keep one reading's rows, and the tables cut from them, to a few tens of ms of work.
 */
export const SOCKET_LINES_MAX = 20_000;
const FILES: [file: string, protocol: SocketProtocol][] = [['tcp', 'tcp'], ['tcp6', 'tcp'], ['udp', 'udp'], ['udp6', 'udp']];
/** Lines parsed in one synchronous run before the event loop gets a turn. */
const LINES_PER_SLICE = 4096;

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One file's text, one entry per well-formed line (the header and odd lines are skipped), in slices of LINES_PER_SLICE. */
export async function parseSocketTable(text: string, protocol: SocketProtocol, max = SOCKET_LINES_MAX): Promise<{ sockets: SocketEntry[]; truncated: boolean }> {
  const sockets: SocketEntry[] = [];
  // Line by line with indexOf: a server's table is megabytes, and one split() would hold the loop while it copies.
  let at = text.indexOf('\n') + 1;
  let lines = 0;
  while (at > 0 && at < text.length) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end);
    at = end < 0 ? text.length : end + 1;
    if (++lines % LINES_PER_SLICE === 0) await yieldTurn();
    if (sockets.length >= max) return { sockets, truncated: true };
    // Fields: sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …, separated by
    // runs of spaces: split on one and drop the empty strings (no regex per line).
    const f = line.split(' ').filter(Boolean);
    if (f.length < 10) continue;
    const local = parseProcAddress(f[1]);
    const remote = parseProcAddress(f[2]);
    const code = parseInt(f[3], 16);
    const uid = Number(f[7]);
    const inode = Number(f[9]);
    if (!local || !remote || !Number.isInteger(code) || !Number.isInteger(uid) || !Number.isInteger(inode)) continue;
    const listening = protocol === 'tcp' ? code === TCP_LISTEN : code === UDP_CLOSE && remote.port === 0;
    const state = protocol === 'udp' ? (code === UDP_CLOSE ? 'UNCONN' : 'ESTABLISHED') : (TCP_STATES[code] ?? `STATE_${code}`);
    sockets.push({
      protocol, family: local.family, localAddress: local.address, localPort: local.port,
      remoteAddress: remote.address, remotePort: remote.port, state, listening, uid, inode,
    });
  }
  return { sockets, truncated: false };
}

/** Bytes read of one table at most: SOCKET_LINES_MAX lines of /proc/net/tcp6, the widest (about 170 bytes a line). */
const TABLE_BYTES_MAX = (SOCKET_LINES_MAX + 1) * 180;

/** The first TABLE_BYTES_MAX bytes of a table (the kernel writes it as it is read, so the rest is never made). */
async function readTable(path: string): Promise<string | undefined> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < TABLE_BYTES_MAX) {
      const { bytesRead, buffer } = await fh.read(Buffer.alloc(256 * 1024), 0, 256 * 1024, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
    }
    return Buffer.concat(chunks).toString('latin1');
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

/** Every TCP and UDP socket, IPv4 and IPv6, of this network namespace (the one `root`'s proc/net shows). */
export async function readSockets(root = '/'): Promise<{ sockets: SocketEntry[]; truncated: boolean }> {
  const parts = await Promise.all(FILES.map(async ([file, protocol]) => {
    const text = await readTable(join(root, 'proc/net', file));
    return text === undefined ? { sockets: [], truncated: false } : await parseSocketTable(text, protocol);
  }));
  return { sockets: parts.flatMap((p) => p.sockets), truncated: parts.some((p) => p.truncated) };
}
