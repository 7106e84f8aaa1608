import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes from `copy` what no longer exists in `source` (a file deleted there, a folder gone): the backup's weekly
 * tidy-up. Walks the copy one folder at a time (async file system calls only, nothing held on the event loop) and
 * never follows links. Returns the entries removed (a folder counts once, whatever it held). `skip` names entries of
 * the copy's top folder that are the backup's own (its `.last-run` marker) and are never compared.
 */
export async function tidyCopy(source: string, copy: string, skip: ReadonlySet<string> = new Set()): Promise<number> {
  let removed = 0;
  const walk = async (from: string, to: string, top: boolean): Promise<void> => {
    let entries;
    try {
      entries = await readdir(to, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (top && skip.has(e.name)) continue;
      const original = await lstat(join(from, e.name)).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' || err.code === 'ENOTDIR' ? null : undefined));
      // Unreadable (permissions, I/O): keep the copy; a backup errs on the side of keeping.
      if (original === undefined) continue;
      if (original === null || original.isDirectory() !== e.isDirectory()) {
        if (original === null) {
          await rm(join(to, e.name), { recursive: true, force: true });
          removed++;
        }
        continue;
      }
      if (e.isDirectory()) await walk(join(from, e.name), join(to, e.name), false);
    }
  };
  await walk(source, copy, true);
  return removed;
}
