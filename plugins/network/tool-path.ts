import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** Where system tools live even when a user's PATH lacks the sbin folders (ufw, nft and tcpdump are often there). */
const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * The absolute path of executable `name` (one of this plugin's constants, never user input) in PATH or the system
 * folders, or undefined: a few `access` calls, no `which` subprocess.
 */
export async function findTool(name: string, path = process.env.PATH ?? ''): Promise<string | undefined> {
  for (const dir of [...path.split(delimiter).filter(Boolean), ...SYSTEM_DIRS]) {
    const file = join(dir, name);
    try {
      await access(file, constants.X_OK);
      return file;
    } catch { /* not here */ }
  }
  return undefined;
}
