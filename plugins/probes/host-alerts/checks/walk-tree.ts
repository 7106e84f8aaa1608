import { lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';

/** The bounds of one walk: whichever is reached first ends it, and the result says it is incomplete. */
export interface WalkBounds {
  /** Files and folders looked at. */
  maxEntries: number;
  /** Wall-clock time, ms. */
  budgetMs: number;
  maxDepth: number;
}

/** A custom rule's walk: 200,000 entries or 5 s, 64 folders deep, whichever comes first. */
export const WALK_BOUNDS: WalkBounds = { maxEntries: 200_000, budgetMs: 5_000, maxDepth: 64 };

export interface WalkResult {
  /** Bytes of regular files (their apparent size, as `du --apparent-size`). */
  bytes: number;
  files: number;
  entries: number;
  /** The newest modification time of any file or folder, epoch ms; null for an empty folder. */
  newestMs: number | null;
  /** False when a bound ended the walk: `bytes` is then a lower bound and `newestMs` the newest seen. */
  complete: boolean;
  elapsedMs: number;
}

/** lstat calls in flight at once: the thread pool has 4 threads by default, and more would only queue. */
const STAT_BATCH = 16;

/**
 * Walks `dir` breadth first without following symbolic links, adding file sizes and the newest modification time,
 * within `bounds`. Every step is an async call on the thread pool, so the event loop stays free; a folder that
 * cannot be read is skipped (counted as incomplete).
 */
export async function walkTree(dir: string, bounds: WalkBounds = WALK_BOUNDS, now: () => number = Date.now): Promise<WalkResult> {
  const started = now();
  const top = await lstat(dir);
  const out: WalkResult = { bytes: 0, files: 0, entries: 1, newestMs: top.mtimeMs, complete: true, elapsedMs: 0 };
  if (!top.isDirectory()) {
    Object.assign(out, { bytes: top.isFile() ? top.size : 0, files: top.isFile() ? 1 : 0 });
    return out;
  }
  const queue: { path: string; depth: number }[] = [{ path: dir, depth: 0 }];
  const over = () => out.entries >= bounds.maxEntries || now() - started >= bounds.budgetMs;
  walk: for (let next = queue.shift(); next; next = queue.shift()) {
    let names: string[] = [];
    try {
      const handle = await opendir(next.path, { bufferSize: 256 });
      for await (const entry of handle) {
        if (names.length + out.entries >= bounds.maxEntries) {
          out.complete = false;
          break;
        }
        names.push(entry.name);
      }
    } catch {
      out.complete = false;
      continue;
    }
    for (let i = 0; i < names.length; i += STAT_BATCH) {
      if (over()) { out.complete = false; break walk; }
      const batch = names.slice(i, i + STAT_BATCH).map((n) => join(next!.path, n));
      const stats = await Promise.all(batch.map((p) => lstat(p).catch(() => undefined)));
      stats.forEach((s, j) => {
        out.entries++;
        if (!s) return; // Deleted since the listing.
        if (out.newestMs === null || s.mtimeMs > out.newestMs) out.newestMs = s.mtimeMs;
        if (s.isFile()) { out.files++; out.bytes += s.size; } else if (s.isDirectory()) {
          if (next!.depth + 1 <= bounds.maxDepth) queue.push({ path: batch[j], depth: next!.depth + 1 });
          else out.complete = false;
        }
      });
    }
    names = [];
  }
  if (over() && queue.length > 0) out.complete = false;
  out.elapsedMs = now() - started;
  return out;
}
