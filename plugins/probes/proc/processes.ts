import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readText } from './read-text.js';

/** /proc reports CPU time in USER_HZ ticks, fixed at 100 a second on every Linux architecture. */
const TICKS_PER_SECOND = 100;
/** Processes read at once: enough to be quick, few enough that a machine with thousands holds few descriptors. */
const READ_CONCURRENCY = 32;

export interface ProcessReading {
  pid: number; ppid: number; name: string;
  /** The kernel's one-letter state: R running, S sleeping, D in I/O, Z zombie, … */
  state: string;
  /** User and system CPU time since the process started, in ticks. */
  cpuTicks: number;
  /** Resident memory in bytes (VmRSS); 0 for kernel threads. */
  rssBytes: number;
  /** The command line, arguments joined by spaces; empty for kernel threads. */
  command: string;
}

export interface ProcessUsage extends ProcessReading {
  /** Share of one core between the two readings, as top shows it: 200 is two cores busy. */
  cpuPercent: number;
}

async function readOne(root: string, pid: number): Promise<ProcessReading | undefined> {
  const [stat, status, cmdline] = await Promise.all([
    readText(root, `proc/${pid}/stat`), readText(root, `proc/${pid}/status`), readText(root, `proc/${pid}/cmdline`),
  ]);
  // The process exited between the listing and the read.
  if (stat === undefined) return undefined;
  // The name sits in parentheses and may itself hold spaces and parentheses: the last ')' ends it.
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  const f = stat.slice(close + 2).split(' ');
  const rss = status === undefined ? undefined : /^VmRSS:\s+(\d+)/m.exec(status)?.[1];
  return {
    pid, ppid: Number(f[1]), name: stat.slice(open + 1, close), state: f[0],
    cpuTicks: Number(f[11]) + Number(f[12]),
    rssBytes: rss ? Number(rss) * 1024 : 0,
    command: (cmdline ?? '').replace(/\0+$/, '').replaceAll('\0', ' '),
  };
}

/** Every process in /proc, read a bounded number at a time. */
export async function readProcesses(root = '/'): Promise<ProcessReading[]> {
  let pids: number[];
  try {
    pids = (await readdir(join(root, 'proc'))).filter((d) => /^\d+$/.test(d)).map(Number);
  } catch {
    return [];
  }
  const out: ProcessReading[] = [];
  for (let i = 0; i < pids.length; i += READ_CONCURRENCY) {
    for (const p of await Promise.all(pids.slice(i, i + READ_CONCURRENCY).map((pid) => readOne(root, pid)))) if (p) out.push(p);
  }
  return out;
}

export interface TopOptions {
  by: 'cpu' | 'memory';
  limit: number;
  /** Keeps processes whose name or command line contains this, ignoring case. */
  query?: string;
}

/**
 * The top processes between two readings `elapsedMs` apart. A process absent from `before` (started in between)
 * is measured from its start; a pid reused by a new process (less CPU than before) likewise.
 */
export function topProcesses(before: readonly ProcessReading[], after: readonly ProcessReading[], elapsedMs: number, options: TopOptions): ProcessUsage[] {
  const earlier = new Map(before.map((p) => [p.pid, p.cpuTicks]));
  const q = options.query?.toLowerCase();
  const seconds = elapsedMs / 1000;
  const usage = after
    .filter((p) => !q || p.name.toLowerCase().includes(q) || p.command.toLowerCase().includes(q))
    .map((p): ProcessUsage => {
      const prev = earlier.get(p.pid);
      const ticks = prev === undefined || prev > p.cpuTicks ? p.cpuTicks : p.cpuTicks - prev;
      return { ...p, cpuPercent: seconds > 0 ? (ticks / TICKS_PER_SECOND / seconds) * 100 : 0 };
    });
  const key = options.by === 'cpu' ? (p: ProcessUsage) => p.cpuPercent : (p: ProcessUsage) => p.rssBytes;
  return usage.sort((a, b) => key(b) - key(a) || a.pid - b.pid).slice(0, Math.max(0, options.limit));
}
