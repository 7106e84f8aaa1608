import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpError } from '@vigil/plugin-sdk';
import { NetworkErrors } from './errors.js';
import { holdsSocket } from './proc/socket-owners.js';
import { readProcessFacts } from './proc/process-facts.js';
import { readSockets } from './proc/socket-table.js';
import type { Asker, Elevation } from './elevation.js';

export interface KillRequest {
  pid: number;
  /** The socket the row showed: the process must still hold it, and it must still listen. */
  inode: number;
  /** The row's start_ticks: refused when the pid's process started at another time (the pid was reused). */
  start_ticks?: number;
  /** SIGKILL (Force) instead of SIGTERM (Stop). */
  force?: boolean;
  /** Through the privileged helper (for another user's process). */
  elevated?: boolean;
}

export interface KillResult {
  pid: number;
  port: number;
  signal: 'SIGTERM' | 'SIGKILL';
  via: 'direct' | 'helper';
  /** The process had ended within EXIT_WAIT_MS of the signal. */
  exited: boolean;
  message: string;
}

/** How long the answer waits for the process to end, ms: a Stop usually ends a server within this. */
const EXIT_WAIT_MS = 2000;
/** The descriptor read of the check, ms. */
const CHECK_BUDGET_MS = 2000;

export interface KillDeps {
  root: string;
  me: { pid: number; uid: number };
  elevation: Elevation;
}

/** Start time of `pid` in ticks, read synchronously so nothing runs between it and the signal; undefined when it exited. */
function startTicksNow(root: string, pid: number): number | undefined {
  try {
    const stat = readFileSync(join(root, 'proc', String(pid), 'stat'), 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return undefined;
  }
}

async function waitForExit(root: string, pid: number, started: number): Promise<boolean> {
  const until = Date.now() + EXIT_WAIT_MS;
  for (;;) {
    const now = startTicksNow(root, pid);
    // A zombie still has its /proc entry until its parent reaps it: its state is Z, and it holds no sockets.
    if (now !== started || isZombie(root, pid)) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function isZombie(root: string, pid: number): boolean {
  try {
    const stat = readFileSync(join(root, 'proc', String(pid), 'stat'), 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return true;
  }
}

/**
 * Stop or Force on one row of the ports table: signals exactly the pid shown, after checking, right before the
 * signal, that this pid still names the process that was listed (same start time) and still holds the listening
 * socket. The last check and the signal run in one synchronous step, so no other process can take the pid between.
 */
export async function killPort(d: KillDeps, req: KillRequest, who: Asker): Promise<KillResult> {
  const signal = req.force ? 'SIGKILL' : 'SIGTERM';
  if (req.pid === d.me.pid) throw httpError(NetworkErrors.OWN_SOCKET, `pid ${req.pid} is Vigil itself; it is not signalled from the dashboard`);
  const facts = await readProcessFacts(d.root, req.pid);
  if (!facts) throw httpError(NetworkErrors.PROCESS_GONE, `pid ${req.pid} has exited; refresh the list`);
  if (req.start_ticks !== undefined && facts.startTicks !== req.start_ticks) {
    throw httpError(NetworkErrors.SOCKET_MOVED, `pid ${req.pid} is now another process (${facts.name}, started later than the one listed): it was reused, so nothing was signalled`);
  }
  const { sockets } = await readSockets(d.root);
  const socket = sockets.find((s) => s.inode === req.inode && s.listening);
  if (!socket) throw httpError(NetworkErrors.SOCKET_MOVED, `socket ${req.inode} no longer listens; refresh the list`);
  const held = await holdsSocket(d.root, req.pid, req.inode, CHECK_BUDGET_MS).catch(() => false);
  if (held === 'gone') throw httpError(NetworkErrors.PROCESS_GONE, `pid ${req.pid} has exited; refresh the list`);
  const where = `${socket.protocol.toUpperCase()} port ${socket.localPort}`;
  // A process of Vigil's own user is signalled by Vigil; any other user's is a privileged action and goes through the
  // elevation path (directly, audited as a host action, when Vigil is root; through the helper when asked for).
  const mine = facts.uid === d.me.uid;
  const elevation = d.elevation.status(who.principal).via;
  if (!mine && elevation !== 'direct' && !req.elevated) {
    throw httpError(NetworkErrors.NOT_PERMITTED, `pid ${req.pid} (${facts.name}) belongs to uid ${facts.uid}; run \`sudo kill -${signal.slice(3)} ${req.pid}\`, or use the privileged helper`);
  }
  // Another user's descriptors cannot be read without root: the helper's own start-time check is what holds then.
  if (held === false) throw httpError(NetworkErrors.SOCKET_MOVED, `pid ${req.pid} (${facts.name}) no longer holds the socket listening on ${where}: nothing was signalled`);
  if (!mine) {
    await d.elevation.kill(req.pid, signal, facts.startTicks, () => startTicksNow(d.root, req.pid) === facts.startTicks, who);
  } else {
    // The last check and the signal in one synchronous step: no await between them.
    if (startTicksNow(d.root, req.pid) !== facts.startTicks) throw httpError(NetworkErrors.PROCESS_GONE, `pid ${req.pid} exited just now; refresh the list`);
    try {
      process.kill(req.pid, signal);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ESRCH') throw httpError(NetworkErrors.PROCESS_GONE, `pid ${req.pid} exited just now; refresh the list`);
      throw httpError(NetworkErrors.NOT_PERMITTED, `the kernel refused ${signal} to pid ${req.pid}: ${code ?? (err as Error).message}`);
    }
  }
  const exited = await waitForExit(d.root, req.pid, facts.startTicks);
  return {
    pid: req.pid, port: socket.localPort, signal, via: mine || elevation !== 'helper' ? 'direct' : 'helper', exited,
    message: exited ? `${facts.name} (pid ${req.pid}) on ${where} has ended` : `${signal} sent to ${facts.name} (pid ${req.pid}) on ${where}; it is still running`,
  };
}
