import { readText } from '../../proc/read-text.js';
import type { CheckLook } from './check.js';

/** The kernel's TCP state code for a listening socket (include/net/tcp_states.h: TCP_LISTEN = 10). */
const TCP_LISTEN = '0A';

/** Ports with a listening TCP socket, from /proc/net/tcp and /proc/net/tcp6 (no `ss`, no subprocess). */
export async function listeningPorts(root: string): Promise<Set<number>> {
  const ports = new Set<number>();
  for (const file of ['proc/net/tcp', 'proc/net/tcp6']) {
    const text = await readText(root, file);
    if (text === undefined) continue;
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st …; local_address is ADDR:PORT in hex.
      const f = line.trim().split(/\s+/);
      if (f.length < 4 || f[3] !== TCP_LISTEN) continue;
      const port = parseInt(f[1].slice(f[1].lastIndexOf(':') + 1), 16);
      if (Number.isInteger(port)) ports.add(port);
    }
  }
  return ports;
}

/** 1 when something listens on TCP `port`, else 0. */
export async function lookAtPort(root: string, port: number): Promise<CheckLook> {
  const listening = (await listeningPorts(root)).has(port);
  return { value: listening ? 1 : 0, detail: listening ? `something listens on TCP port ${port}` : `nothing listens on TCP port ${port}` };
}
