import type { CheckLook } from './check.js';
import { CheckUnavailable } from './check.js';
import { walkTarget } from './folder-check.js';
import { WALK_BOUNDS, type WalkBounds } from './walk-tree.js';

const DAY_MS = 86_400_000;

/**
 * The age in days of the newest modification under `path` (a file's own, or any file or folder inside a folder):
 * how long ago the backup last wrote there. An empty folder has no backup at all and cannot be judged.
 */
export async function lookAtBackup(root: string, path: string, now: number, bounds: WalkBounds = WALK_BOUNDS): Promise<CheckLook> {
  const w = await walkTarget(root, path, bounds);
  if (w.newestMs === null) throw new CheckUnavailable(`${path} is empty`);
  const days = Math.max(0, (now - w.newestMs) / DAY_MS);
  return {
    value: days,
    detail: `newest change ${days < 1 ? `${Math.round(days * 24)} h` : `${days.toFixed(1)} days`} ago (${new Date(w.newestMs).toISOString()})${w.complete ? '' : `, among the first ${w.entries.toLocaleString('en-US')} entries`}`,
  };
}
