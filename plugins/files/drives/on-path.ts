import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** Whether an executable `name` is on PATH (or in /usr/sbin and /sbin, where smartctl lives), without running it. */
export async function onPath(name: string): Promise<boolean> {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin'].filter(Boolean);
  for (const dir of dirs) {
    try { await access(join(dir, name), constants.X_OK); return true; } catch { /* next */ }
  }
  return false;
}
