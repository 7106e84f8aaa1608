import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/**
 * Whether an executable `name` is in one of PATH's directories: a few `access` calls, no `which` subprocess.
 * `name` is always one of this plugin's constants, never user input.
 */
export async function onPath(name: string, path = process.env.PATH ?? ''): Promise<boolean> {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      await access(join(dir, name), constants.X_OK);
      return true;
    } catch { /* not in this directory */ }
  }
  return false;
}
