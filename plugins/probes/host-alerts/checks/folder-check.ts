import { join } from 'node:path';
import { CheckUnavailable, type CheckLook } from './check.js';
import { walkTree, WALK_BOUNDS, type WalkBounds } from './walk-tree.js';

const GB = 1e9;

export const gigabytes = (bytes: number): string => `${(bytes / GB).toFixed(bytes >= 10 * GB ? 1 : 2)} GB`;

/** Opens a walk of a path the user gave, reporting a missing or unreadable path as a check that cannot look. */
export async function walkTarget(root: string, path: string, bounds: WalkBounds) {
  try {
    return await walkTree(join(root, path), bounds);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CheckUnavailable(code === 'ENOENT' ? `${path} does not exist` : `${path} cannot be read (${code ?? (err as Error).message})`);
  }
}

/**
 * The size of a folder in GB (decimal), measured within the walk's bounds. A walk a bound ended reports what it
 * counted: a lower bound, so a rule that fires on it is right, and the test button says it is incomplete.
 */
export async function lookAtFolder(root: string, path: string, bounds: WalkBounds = WALK_BOUNDS): Promise<CheckLook> {
  const w = await walkTarget(root, path, bounds);
  return {
    value: w.bytes / GB,
    detail: `${gigabytes(w.bytes)} in ${w.files.toLocaleString('en-US')} files${w.complete ? '' : `, at least (the walk stopped after ${w.entries.toLocaleString('en-US')} entries in ${w.elapsedMs} ms)`}`,
  };
}
