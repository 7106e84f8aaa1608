import { readdirSync, readlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** How long one synchronous run of the walk may hold the event loop before it yields, ms. */
const SLICE_MS = 4;
/** Descriptor links read in one synchronous run of `holdsSocket` before the event loop gets a turn. */
const LINKS_PER_SLICE = 512;

export interface SocketOwners {
  /** Socket inode to the processes holding it, lowest pid first (a forked server's workers share their parent's). */
  owners: Map<number, number[]>;
  /** Processes whose descriptors could not be read: another user's, when Vigil is not root. */
  hidden: number;
  /** The walk stopped at its time budget: some owners are missing. */
  partial: boolean;
  /** Processes looked into. */
  processes: number;
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Which processes hold which sockets: every /proc/<pid>/fd link of the form `socket:[inode]`, as `ss -p` finds them.
 * Only inodes in `wanted` are recorded (all when it is undefined). Bounded by `budgetMs`: past it the walk stops and
 * says `partial`. Folders and links are read synchronously (a /proc readdir or readlink is a few µs; a hop through
 * the thread pool costs more than the call), in runs of at most SLICE_MS between turns of the event loop.
 */
export async function findSocketOwners(root: string, wanted: ReadonlySet<number> | undefined, budgetMs: number, now: () => number = Date.now): Promise<SocketOwners> {
  const deadline = now() + budgetMs;
  const owners = new Map<number, number[]>();
  let hidden = 0;
  let partial = false;
  let processes = 0;
  let pids: number[];
  try {
    pids = (await readdir(join(root, 'proc'))).filter((d) => /^\d+$/.test(d)).map(Number).sort((a, b) => a - b);
  } catch {
    return { owners, hidden, partial, processes };
  }
  let sliceStart = performance.now();
  for (const pid of pids) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldTurn();
      sliceStart = performance.now();
    }
    if (now() > deadline) { partial = true; break; }
    const dir = `${root === '/' ? '' : root}/proc/${pid}/fd`;
    let fds: string[];
    try {
      fds = readdirSync(dir);
    } catch (err) {
      // Gone since the listing (ENOENT) is not hidden; not ours to read (EACCES) is.
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') hidden++;
      continue;
    }
    processes++;
    for (let i = 0; i < fds.length; i++) {
      // A process with very many descriptors still yields between runs.
      if ((i & 255) === 255 && performance.now() - sliceStart > SLICE_MS) {
        await yieldTurn();
        sliceStart = performance.now();
        if (now() > deadline) { partial = true; break; }
      }
      let link: string;
      try { link = readlinkSync(`${dir}/${fds[i]}`); } catch { continue; }
      if (!link.startsWith('socket:[')) continue;
      const inode = Number(link.slice(8, -1));
      if (wanted && !wanted.has(inode)) continue;
      const list = owners.get(inode);
      if (!list) owners.set(inode, [pid]);
      else if (list[list.length - 1] !== pid) list.push(pid);
    }
    if (partial) break;
  }
  return { owners, hidden, partial, processes };
}

/**
 * Whether process `pid` holds `socket:[inode]` now: one read of its descriptors, bounded by `budgetMs`. `gone`: it
 * exited; `hidden`: its descriptors are another user's to read (Vigil is not root).
 */
export async function holdsSocket(root: string, pid: number, inode: number, budgetMs: number, now: () => number = Date.now): Promise<boolean | 'gone' | 'hidden'> {
  const dir = join(root, 'proc', String(pid), 'fd');
  let fds: string[];
  try {
    fds = await readdir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'gone';
    if (code === 'EACCES' || code === 'EPERM') return 'hidden';
    throw err;
  }
  const deadline = now() + budgetMs;
  const target = `socket:[${inode}]`;
  for (let i = 0; i < fds.length; i++) {
    if (i > 0 && i % LINKS_PER_SLICE === 0) {
      await yieldTurn();
      if (now() > deadline) return false;
    }
    try { if (readlinkSync(`${dir}/${fds[i]}`) === target) return true; } catch { /* closed meanwhile */ }
  }
  return false;
}
