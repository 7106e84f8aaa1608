import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface SessionMember {
  pid: number;
  pgid: number;
}

/**
 * Live processes (not zombies) of the session `sid`, read from `/proc/<pid>/stat`. A shell's background jobs get
 * process groups of their own (job control), so killing the shell's group alone would leave `sleep 1000 &` behind:
 * the session is what holds every process the terminal started, except one that called setsid() itself.
 * Cost: one read per process on the machine, at the end of a terminal only.
 */
export async function sessionMembers(sid: number, proc = '/proc'): Promise<SessionMember[]> {
  const names = await readdir(proc).catch(() => [] as string[]);
  const members: SessionMember[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`${proc}/${name}/stat`, 'utf8').catch(() => '');
    // The command name is in parentheses and may hold spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // state ppid pgrp session …
    if (fields.length < 4 || fields[0] === 'Z' || Number(fields[3]) !== sid) continue;
    members.push({ pid: Number(name), pgid: Number(fields[2]) });
  }
  return members;
}

function signal(target: number, sig: NodeJS.Signals): void {
  try { process.kill(target, sig); } catch { /* gone already (ESRCH), or not ours to signal (EPERM) */ }
}

export interface EndSessionOptions {
  /** How long processes have after SIGHUP before SIGKILL, in ms. */
  graceMs?: number;
  proc?: string;
}

/**
 * Ends every process of the terminal's session `sid` (the shell is a session leader: node-pty's forkpty calls
 * setsid): SIGHUP to each of its process groups, as a hangup of the terminal would, then SIGKILL to whatever is
 * left after the grace period. Resolves with the number of processes that needed SIGKILL.
 */
export async function endSession(sid: number, options: EndSessionOptions = {}): Promise<number> {
  const graceMs = options.graceMs ?? 2_000;
  let members = await sessionMembers(sid, options.proc);
  for (const pgid of new Set(members.map((m) => m.pgid))) {
    signal(-pgid, 'SIGHUP');
    // A stopped job (Ctrl-Z) ignores SIGHUP until continued.
    signal(-pgid, 'SIGCONT');
  }
  const deadline = Date.now() + graceMs;
  while (members.length > 0 && Date.now() < deadline) {
    await sleep(50);
    members = await sessionMembers(sid, options.proc);
  }
  for (const m of members) signal(m.pid, 'SIGKILL');
  return members.length;
}
