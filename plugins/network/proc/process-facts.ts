import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A process as the ports and connections tables show it. */
export interface ProcessFacts {
  pid: number;
  /** The kernel's name for it (comm, at most 15 characters). */
  name: string;
  /** The command line, arguments joined by spaces, at most COMMAND_CHARS; the name in brackets when empty (a kernel thread). */
  command: string;
  /** The real uid. */
  uid: number;
  /** Start time in clock ticks since boot (field 22 of stat): with the pid it names one process, so a reused pid shows as a different start. */
  startTicks: number;
}

export const COMMAND_CHARS = 1024;

const read = (root: string, pid: number, file: string) => readFile(join(root, 'proc', String(pid), file), 'utf8').catch(() => undefined);

/** One process's facts, or undefined when it has exited. */
export async function readProcessFacts(root: string, pid: number): Promise<ProcessFacts | undefined> {
  const [stat, status, cmdline] = await Promise.all([read(root, pid, 'stat'), read(root, pid, 'status'), read(root, pid, 'cmdline')]);
  if (stat === undefined || status === undefined) return undefined;
  // The name sits in parentheses and may itself hold spaces and parentheses: the last ')' ends it.
  const close = stat.lastIndexOf(')');
  const name = stat.slice(stat.indexOf('(') + 1, close);
  const f = stat.slice(close + 2).split(' ');
  const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
  const command = (cmdline ?? '').replace(/\0+$/, '').replaceAll('\0', ' ');
  return {
    pid, name, uid, startTicks: Number(f[19]),
    command: command === '' ? `[${name}]` : command.length > COMMAND_CHARS ? `${command.slice(0, COMMAND_CHARS - 1)}…` : command,
  };
}

/** Facts of many processes, 32 read at once; exited ones are left out. */
export async function readManyFacts(root: string, pids: Iterable<number>): Promise<Map<number, ProcessFacts>> {
  const list = [...new Set(pids)];
  const out = new Map<number, ProcessFacts>();
  for (let i = 0; i < list.length; i += 32) {
    for (const f of await Promise.all(list.slice(i, i + 32).map((pid) => readProcessFacts(root, pid)))) if (f) out.set(f.pid, f);
  }
  return out;
}
