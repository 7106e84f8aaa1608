import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, extname, isAbsolute, join } from 'node:path';
import { httpError } from '@vigil/plugin-sdk';
import { FilesErrors } from '../errors.js';
import { deletionDate, deletionTime, formatTrashInfo, parseTrashInfo } from './trash-info.js';

export interface TrashItem {
  /** The name under Trash/files (and of its `.trashinfo`): what restore takes. */
  name: string;
  /** Where it was. */
  path: string;
  deleted_at: string | null;
  /** Apparent size; for a folder, its own entry only (the spec's directorysizes cache is not kept). */
  bytes: number;
  dir: boolean;
}

/** Items a listing answers with at most (newest first). */
export const TRASH_LIST_MAX = 1000;

/** `$XDG_DATA_HOME/Trash`, `~/.local/share/Trash` by default (the spec's home trash). */
export function homeTrashDir(env: NodeJS.ProcessEnv = process.env): string {
  const data = env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : join(homedir(), '.local/share');
  return join(data, 'Trash');
}

/**
 * The home trash of the freedesktop trash spec, which file managers (GNOME Files, Dolphin, `gio trash`) share: an
 * item is `files/<name>` with `info/<name>.trashinfo`. The info file is made first, with O_EXCL, which is how the
 * spec reserves a name; a name taken gets ` 2`, ` 3`, … before its extension.
 */
export class HomeTrash {
  constructor(readonly dir: string) {}

  private get files() { return join(this.dir, 'files'); }
  private get info() { return join(this.dir, 'info'); }

  private async ensure(): Promise<void> {
    await mkdir(this.files, { recursive: true, mode: 0o700 });
    await mkdir(this.info, { recursive: true, mode: 0o700 });
  }

  /** Moves `path` (resolved and checked by the caller) into the trash. */
  async trash(path: string, now = new Date()): Promise<TrashItem> {
    const st = await lstat(path);
    await this.ensure();
    if ((await stat(this.files)).dev !== st.dev) {
      throw httpError(FilesErrors.TRASH_DEVICE, `${JSON.stringify(path)} is on another filesystem than the trash (${this.dir})`);
    }
    const original = basename(path);
    const ext = st.isDirectory() ? '' : extname(original);
    const stem = ext ? original.slice(0, -ext.length) : original;
    const date = deletionDate(now);
    for (let n = 1; n < 10_000; n++) {
      const name = n === 1 ? original : `${stem} ${n}${ext}`;
      let handle;
      try {
        handle = await open(join(this.info, `${name}.trashinfo`), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw err;
      }
      try { await handle.writeFile(formatTrashInfo({ path, deletionDate: date })); } finally { await handle.close(); }
      // A leftover in files/ without its info (another program crashed) also takes the name.
      if (await lstat(join(this.files, name)).then(() => true, () => false)) { await rm(join(this.info, `${name}.trashinfo`)); continue; }
      try {
        await rename(path, join(this.files, name));
      } catch (err) {
        await rm(join(this.info, `${name}.trashinfo`), { force: true });
        throw err;
      }
      return { name, path, deleted_at: new Date(deletionTime(date) ?? now.getTime()).toISOString(), bytes: st.size, dir: st.isDirectory() };
    }
    throw httpError(FilesErrors.EXISTS, `the trash holds too many items named ${JSON.stringify(original)}`);
  }

  async list(): Promise<{ items: TrashItem[]; total: number }> {
    let names: string[];
    try { names = await readdir(this.info); } catch { return { items: [], total: 0 }; }
    const items: TrashItem[] = [];
    for (const file of names) {
      if (!file.endsWith('.trashinfo')) continue;
      const item = await this.read(file.slice(0, -'.trashinfo'.length));
      if (item) items.push(item);
    }
    items.sort((a, b) => (b.deleted_at ?? '').localeCompare(a.deleted_at ?? '') || a.name.localeCompare(b.name));
    return { items: items.slice(0, TRASH_LIST_MAX), total: items.length };
  }

  /** Puts an item back where it was; refuses when something is there now. `allowed` checks the place (under the roots). */
  async restore(name: string, allowed: (path: string) => Promise<void>): Promise<TrashItem> {
    const item = await this.read(name);
    if (!item) throw httpError(FilesErrors.TRASH_ITEM, `the trash has no item ${JSON.stringify(name)}`);
    // The nearest folder that exists is checked before any missing one is made again.
    let folder = dirname(item.path);
    while (!(await lstat(folder).then(() => true, () => false)) && dirname(folder) !== folder) folder = dirname(folder);
    await allowed(folder);
    await mkdir(dirname(item.path), { recursive: true });
    if (await lstat(item.path).then(() => true, () => false)) {
      throw httpError(FilesErrors.EXISTS, `${JSON.stringify(item.path)} exists; move it away before restoring`);
    }
    await rename(join(this.files, name), item.path);
    await rm(join(this.info, `${name}.trashinfo`), { force: true });
    return item;
  }

  /** Deletes an item for good (the page asks first). */
  async remove(name: string): Promise<TrashItem> {
    const item = await this.read(name);
    if (!item) throw httpError(FilesErrors.TRASH_ITEM, `the trash has no item ${JSON.stringify(name)}`);
    await rm(join(this.files, name), { recursive: true, force: true });
    await rm(join(this.info, `${name}.trashinfo`), { force: true });
    return item;
  }

  private async read(name: string): Promise<TrashItem | undefined> {
    if (name === '' || name.includes('/') || name === '.' || name === '..' || name.includes('\0')) return undefined;
    let info;
    try { info = parseTrashInfo(await readFile(join(this.info, `${name}.trashinfo`), 'utf8')); } catch { return undefined; }
    if (!info) return undefined;
    let st;
    try { st = await lstat(join(this.files, name)); } catch { return undefined; }
    const at = deletionTime(info.deletionDate);
    return { name, path: info.path, deleted_at: at === null ? null : new Date(at).toISOString(), bytes: st.size, dir: st.isDirectory() };
  }
}
