import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readText } from '../../proc/read-text.js';
import type { CheckLook } from './check.js';

/** Processes read at once, so a machine with thousands holds few descriptors. */
const READ_CONCURRENCY = 32;

/**
 * How many processes have `name` in their name (/proc/<pid>/comm, which the kernel cuts at 15 characters) or in the
 * file name of their program (argv[0] of /proc/<pid>/cmdline), ignoring case: perch's substring match.
 */
export async function countProcesses(root: string, name: string): Promise<{ count: number; pids: number[] }> {
  let pids: number[];
  try {
    pids = (await readdir(join(root, 'proc'))).filter((d) => /^\d+$/.test(d)).map(Number);
  } catch {
    return { count: 0, pids: [] };
  }
  const want = name.toLowerCase();
  const matched: number[] = [];
  for (let i = 0; i < pids.length; i += READ_CONCURRENCY) {
    const slice = pids.slice(i, i + READ_CONCURRENCY);
    const hits = await Promise.all(slice.map(async (pid) => {
      const [comm, cmdline] = await Promise.all([readText(root, `proc/${pid}/comm`), readText(root, `proc/${pid}/cmdline`)]);
      if (comm === undefined) return false; // Exited between the listing and the read.
      const program = (cmdline ?? '').split('\0')[0].split('/').pop() ?? '';
      return comm.trim().toLowerCase().includes(want) || program.toLowerCase().includes(want);
    }));
    slice.forEach((pid, j) => { if (hits[j]) matched.push(pid); });
  }
  return { count: matched.length, pids: matched };
}

/** The number of processes matching `name`; a rule fires when it is 0. */
export async function lookAtProcess(root: string, name: string): Promise<CheckLook> {
  const { count, pids } = await countProcesses(root, name);
  return {
    value: count,
    detail: count === 0 ? `no process named like "${name}" runs` : `${count} process${count === 1 ? '' : 'es'} named like "${name}" (pid ${pids.slice(0, 5).join(', ')}${count > 5 ? ', …' : ''})`,
  };
}
