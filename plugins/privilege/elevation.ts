import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import type { ElevationMethod } from '@vigil/plugin-sdk';
import { SYSTEM_PATH } from './run-program.js';

/** How this process elevates, found once at start. */
export interface Elevation {
  method: ElevationMethod;
  /** sudo asks for a password (false: NOPASSWD, or not sudo at all). */
  passwordNeeded: boolean;
  /** Absolute path of sudo or pkexec. */
  tool?: string;
  note: string | null;
}

/** The absolute path of `program` in the system folders, or null: the PATH Vigil was started with is not used. */
export async function systemProgram(program: string): Promise<string | null> {
  for (const dir of SYSTEM_PATH.split(':')) {
    const path = `${dir}/${program}`;
    try { await access(path, constants.X_OK); return path; } catch { /* next folder */ }
  }
  return null;
}

/** `sudo -n true`: 0 when this user may run commands without a password (NOPASSWD). */
function sudoWithoutPassword(sudo: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(sudo, ['-n', 'true'], { timeout: 5000, env: { PATH: SYSTEM_PATH, LC_ALL: 'C' } }, (err) => resolve(!err));
  });
}

/** Decides the method for `privilege.method` as this process runs (its user, the tools installed). */
export async function findElevation(method: 'auto' | 'root' | 'sudo' | 'pkexec' | 'off', uid: number): Promise<Elevation> {
  if (method === 'off') return { method: 'none', passwordNeeded: false, note: 'host actions are off (privilege.method: off)' };
  const isRoot = uid === 0;
  if (method === 'root' || (method === 'auto' && isRoot)) {
    return isRoot ? { method: 'root', passwordNeeded: false, note: null }
      : { method: 'none', passwordNeeded: false, note: 'privilege.method is root but Vigil does not run as root' };
  }
  if (method === 'pkexec') {
    const tool = await systemProgram('pkexec');
    return tool ? { method: 'pkexec', passwordNeeded: false, tool, note: null }
      : { method: 'none', passwordNeeded: false, note: 'privilege.method is pkexec but pkexec (polkit) is not installed' };
  }
  const sudo = await systemProgram('sudo');
  if (!sudo) return { method: 'none', passwordNeeded: false, note: 'Vigil does not run as root and sudo is not installed: install sudo, run Vigil as root, or use pkexec with a polkit rule' };
  return { method: 'sudo', passwordNeeded: !(await sudoWithoutPassword(sudo)), tool: sudo, note: null };
}

/** The command that runs `program argv` elevated: as is for root; through sudo (the password on stdin) or pkexec. */
export function elevatedCommand(elevation: Elevation, program: string, argv: string[], env: Record<string, string>, withPassword: boolean): { command: string; argv: string[]; env: Record<string, string> } {
  if (elevation.method === 'root') return { command: program, argv, env };
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  if (elevation.method === 'sudo') {
    // -k: sudo's own timestamp is not used or renewed, so one session's password never lets another session in.
    // -p '': no prompt in the output. Variables go before `--` (sudo's VAR=value form, which needs SETENV in a
    // restricted sudoers rule).
    const flags = withPassword ? ['-S', '-k', '-p', ''] : ['-n'];
    return { command: elevation.tool!, argv: [...flags, ...vars, '--', program, ...argv], env: {} };
  }
  // pkexec clears the environment; env(1) sets the variables again (the polkit rule allows /usr/bin/env for that).
  return { command: elevation.tool!, argv: vars.length ? ['--disable-internal-agent', '/usr/bin/env', ...vars, program, ...argv] : ['--disable-internal-agent', program, ...argv], env: {} };
}

/** Checks a sudo password without running anything: `sudo -S -k -l` lists this user's rights after asking for it. */
export function sudoAccepts(sudo: string, password: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    const child = execFile(sudo, ['-S', '-k', '-p', '', '-l'], { timeout: 15_000, env: { PATH: SYSTEM_PATH, LC_ALL: 'C' } }, (err) => resolve(!err));
    child.stdin?.on('error', () => undefined);
    const line = Buffer.concat([password, Buffer.from('\n')]);
    child.stdin?.end(line, () => line.fill(0));
  });
}
