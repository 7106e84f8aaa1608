// An unprivileged account for the privilege tests, made by a test running as root: no home, no login shell, a
// password, and sudo rights from a sudoers.d file of its own; `remove()` deletes both. `startVigilAs` runs `vigil run`
// as that account, so the privileged helper has to go through sudo.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, rmSync, writeFileSync } from 'node:fs';
import { waitFor } from './net.js';
import { vigilBin } from './paths.js';

export interface SudoUser {
  name: string;
  uid: number;
  gid: number;
  password: string;
  /** Gives `path` (a folder or file the test made) to the account. */
  own(path: string): void;
  remove(): void;
}

export function makeSudoUser(): SudoUser {
  const suffix = randomBytes(3).toString('hex');
  const name = `vgpriv${suffix}`;
  const sudoers = `/etc/sudoers.d/vigil-test-${suffix}`;
  const password = `Pw-${randomBytes(9).toString('base64url')}`;
  execFileSync('useradd', ['-M', '-s', '/usr/sbin/nologin', name]);
  try {
    execFileSync('chpasswd', [], { input: `${name}:${password}\n` });
    writeFileSync(sudoers, `${name} ALL=(root) ALL\n`, { mode: 0o440 });
    execFileSync('visudo', ['-c', '-f', sudoers], { stdio: 'ignore' });
  } catch (err) {
    rmSync(sudoers, { force: true });
    execFileSync('userdel', [name], { stdio: 'ignore' });
    throw err;
  }
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return {
    name, uid, gid, password,
    own: (path) => chownSync(path, uid, gid),
    remove() {
      rmSync(sudoers, { force: true });
      try { execFileSync('userdel', [name], { stdio: 'ignore' }); } catch { /* already gone */ }
    },
  };
}

export interface UserVigil {
  proc: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** `vigil run -config <file>` as `user` (the config and its data folder must be the user's); resolves once healthy. */
export async function startVigilAs(user: SudoUser, file: string, cwd: string, base: string): Promise<UserVigil> {
  const proc = spawn(process.execPath, [vigilBin, 'run', '-config', file], {
    uid: user.uid, gid: user.gid, cwd, env: { ...process.env, HOME: cwd, USER: user.name, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => { out += d; });
  proc.stderr!.on('data', (d) => { out += d; });
  const exited = new Promise<void>((resolve) => proc.on('close', () => resolve()));
  const vigil = { proc, output: () => out, stop: async () => { if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM'); await exited; } };
  await waitFor(async () => {
    if (proc.exitCode !== null) throw new Error(`vigil as ${user.name} exited:\n${out}`);
    return (await fetch(`${base}/api/health`).catch(() => undefined))?.status === 200;
  }, { timeoutMs: 20_000, what: `vigil as ${user.name}` }).catch(async (err) => { await vigil.stop(); throw err; });
  return vigil;
}
