import { lstat, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, basename, isAbsolute, join, resolve } from 'node:path';
import { httpError, pathWithin } from '@vigil/plugin-sdk';
import { FilesErrors } from '../errors.js';

/** `~` and `~/x` as the home directory of the user Vigil runs as; other paths as given. */
export function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return path;
}

export const badPath = (message: string) => httpError(FilesErrors.PATH, message);

/** Whether `path` is `root` or below it (both resolved). */
export const isUnder = (path: string, root: string): boolean => pathWithin(root, path);

/**
 * The folders a tool may touch, resolved once (a root that does not exist is left out). Every path a request names
 * is resolved the same way (`..`, then symbolic links through `realpath`) before it is compared, so neither
 * `/home/u/../../etc/shadow` nor a link inside a root that points out of it gets through.
 */
export class AllowedRoots {
  private constructor(readonly roots: string[], private readonly what: string) {}

  static async resolve(paths: string[], what: string): Promise<AllowedRoots> {
    const roots: string[] = [];
    for (const p of paths) {
      try { roots.push(await realpath(resolve(expandHome(p)))); } catch { /* a missing root allows nothing */ }
    }
    return new AllowedRoots(roots, what);
  }

  describe(): string {
    return this.roots.length ? this.roots.join(', ') : '(none exists)';
  }

  /** The real path of an existing entry under a root, or a 400 that says why not. */
  async existing(raw: unknown): Promise<string> {
    const path = this.syntax(raw);
    let real: string;
    try { real = await realpath(path); } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw badPath(`${JSON.stringify(path)} ${code === 'ENOENT' ? 'does not exist' : code === 'ELOOP' ? 'is a loop of symbolic links' : `cannot be resolved (${code})`}`);
    }
    this.check(real, path);
    return real;
  }

  /**
   * The path an entry that may not exist yet would have: its folder resolved (it must exist, under a root), the last
   * name kept as given. A last name that is a symbolic link (a dotfile kept in another folder) is followed and its
   * target checked like any path: a save replaces the file it points to, inside the roots or not at all.
   */
  async target(raw: unknown): Promise<string> {
    const path = this.syntax(raw);
    const name = basename(path);
    if (name === '' || name === '.' || name === '..') throw badPath(`${JSON.stringify(path)} names no file`);
    const folder = await this.existing(dirname(path));
    const full = join(folder, name);
    const link = await lstat(full).then((st) => st.isSymbolicLink(), () => false);
    return link ? this.existing(full) : full;
  }

  private syntax(raw: unknown): string {
    if (typeof raw !== 'string' || raw === '') throw badPath('a path is needed');
    if (raw.includes('\0')) throw badPath('a path cannot hold a NUL byte');
    const expanded = expandHome(raw);
    if (!isAbsolute(expanded)) throw badPath(`${JSON.stringify(raw)} is not an absolute path`);
    return resolve(expanded);
  }

  private check(real: string, asked: string): void {
    if (this.roots.some((r) => isUnder(real, r))) return;
    const via = real === asked ? '' : ` (it resolves to ${JSON.stringify(real)})`;
    throw badPath(`${JSON.stringify(asked)}${via} is outside the folders ${this.what} may touch: ${this.describe()}`);
  }
}
