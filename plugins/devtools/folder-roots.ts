import { opendir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { httpError, pathWithin } from '@vigil/plugin-sdk';
import { DevtoolsErrors, folderRefused } from './errors.js';

/** Sub-folders one listing names at most (the picker's bound); the answer says when there were more. */
export const MAX_SUBFOLDERS = 500;
/** Directory entries read at most to find them (a folder of a million files costs this many, not a million). */
const MAX_ENTRIES_READ = 20_000;

/**
 * The folders projects may be picked from: each resolved once at start with realpath (a root that is itself a symlink
 * counts as where it points). A folder is checked after its own symlinks are resolved, so a link inside a root that
 * points outside is refused.
 */
export class FolderRoots {
  private constructor(readonly roots: readonly string[]) {}

  static async resolve(paths: readonly string[]): Promise<FolderRoots> {
    return new FolderRoots(await Promise.all(paths.map((p) => realpath(p).catch(() => p))));
  }

  /** The real path of `input` when it is a folder under a root; throws 400/403/404 otherwise. */
  async folder(input: string): Promise<string> {
    if (!isAbsolute(input)) throw folderRefused(`the folder must be an absolute path, e.g. ${join(this.roots[0] ?? '/', 'project')}`);
    let real: string;
    try {
      real = await realpath(input);
    } catch {
      throw httpError(DevtoolsErrors.FOLDER_MISSING, `there is no folder at ${input}`);
    }
    if (!this.roots.some((r) => pathWithin(r, real))) {
      throw folderRefused(`${input}${real === input ? '' : ` (really ${real})`} is outside the folders projects may be picked from (devtools.roots: ${this.roots.join(', ') || 'none'})`);
    }
    if (!(await stat(real)).isDirectory()) throw folderRefused(`${input} is not a folder`);
    return real;
  }

  /** The parent of a resolved folder when it is still under a root, else null (the picker's "up"). */
  parentOf(folder: string): string | null {
    const parent = dirname(folder);
    return parent !== folder && this.roots.some((r) => pathWithin(r, parent)) ? parent : null;
  }
}

/** Names of the sub-folders of `folder` (not hidden ones, not symlinks), sorted; at most MAX_SUBFOLDERS. */
export async function subfolders(folder: string): Promise<{ names: string[]; more: boolean }> {
  const names: string[] = [];
  let read = 0;
  let more = false;
  const dir = await opendir(folder, { bufferSize: 256 });
  try {
    for await (const entry of dir) {
      if (++read > MAX_ENTRIES_READ) { more = true; break; }
      if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      if (names.length >= MAX_SUBFOLDERS) { more = true; break; }
      names.push(basename(entry.name));
    }
  } finally {
    await dir.close().catch(() => undefined);
  }
  return { names: names.sort((a, b) => a.localeCompare(b)), more };
}
