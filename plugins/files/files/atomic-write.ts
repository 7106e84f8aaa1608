import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `path` with `data` so that a reader sees either the old file or the new one, never a part: the bytes go
 * to a new file in the same folder (same filesystem, so the rename is atomic), which is flushed to disk, given the
 * old file's mode, and renamed over the old name; then the folder is flushed so the rename survives a crash.
 */
export async function writeAtomically(path: string, data: Buffer): Promise<void> {
  const folder = dirname(path);
  const temp = join(folder, `.${basename(path)}.vigil-${randomBytes(6).toString('hex')}.tmp`);
  let mode = 0o644;
  try { mode = (await stat(path)).mode & 0o7777; } catch { /* a new file */ }
  // O_EXCL: never write through something another process put at the temporary name.
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    await handle.writeFile(data);
    await handle.chmod(mode);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  const dir = await open(folder, 'r');
  try { await dir.sync(); } catch { /* some filesystems refuse fsync on a folder; the rename is done */ } finally { await dir.close(); }
}
