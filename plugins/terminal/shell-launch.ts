import { accessSync, constants } from 'node:fs';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

const executable = (path: string | undefined): path is string => {
  if (!path || !isAbsolute(path)) return false;
  try { accessSync(path, constants.X_OK); return true; } catch { return false; }
};

/** The shell to run: the configured one, else the user's `$SHELL`, else /bin/bash, else /bin/sh. */
export function chooseShell(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (configured) return configured;
  return [env.SHELL, '/bin/bash', '/bin/sh'].find(executable) ?? '/bin/sh';
}

/** Why a folder cannot be the terminal's working directory. */
export class FolderError extends Error {}

/**
 * The working directory for a terminal: `requested` (absolute, or `~` / `~/…` under the home directory) when it is
 * an existing directory, else the home directory when nothing was asked. Throws FolderError otherwise.
 */
export async function resolveFolder(requested: string | undefined, home = homedir()): Promise<string> {
  if (requested === undefined || requested === '') return home;
  const path = requested === '~' ? home : requested.startsWith('~/') ? join(home, requested.slice(2)) : requested;
  if (!isAbsolute(path)) throw new FolderError(`folder ${JSON.stringify(requested)} is not an absolute path`);
  if (path.includes('\0')) throw new FolderError('folder holds a NUL character');
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new FolderError(`folder ${path} does not exist`);
  if (!info.isDirectory()) throw new FolderError(`${path} is not a directory`);
  return path;
}

/**
 * The shell's environment: the server's, with `TERM=xterm-256color` and truecolor, less the variables that look
 * like Vigil's own credentials. That is tidiness, not a boundary: the shell runs as the same user and could read
 * the server's environment from /proc.
 */
export function shellEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || /^VIGIL_/.test(key) || /(TOKEN|SECRET|PASSWORD|API_KEY)/i.test(key)) continue;
    out[key] = value;
  }
  out.TERM = 'xterm-256color';
  out.COLORTERM = 'truecolor';
  return out;
}
