import { isAbsolute, relative, sep } from 'node:path';

/**
 * Whether `path` is `root` or lies below it, both already resolved (`realpath`): the one test every plugin that
 * confines what a request may name to configured folders makes after resolving symbolic links. Compared by
 * `path.relative`, so `/home/a` does not contain `/home/ab`.
 */
export function pathWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
