import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import type { ScanCounts, ScanLimits, StopReason } from './scan-types.js';


/** What a walk tells its kind of scan about each entry. `dir` is the index of the folder that holds it. */
export interface WalkSink {
  /** A file (or a link, a socket, a device: anything that is not a folder), with its lstat. */
  file(dir: number, name: string, path: string, st: Stats | undefined, entry: Dirent): void;
  /** A folder about to be listed; returns its index (the walk passes it back as `dir` of its entries). */
  folder(parent: number, path: string, st: Stats | undefined): number;
}

/** Checks the budget, the cancel flag and the entry cap; cheap enough to call per entry. */
export class WalkGuard {
  private readonly deadline: number;
  private readonly flag: Int32Array;
  private seen = 0;
  stop: StopReason = null;

  constructor(private readonly limits: ScanLimits, cancel: SharedArrayBuffer, startedAt = Date.now()) {
    this.deadline = startedAt + limits.budgetMs;
    this.flag = new Int32Array(cancel);
  }

  /** Counts one entry; true when the walk must end (the reason is in `stop`). The clock is read every 64 entries. */
  tick(): boolean {
    if (this.stop) return true;
    this.seen++;
    if (this.seen > this.limits.maxEntries) this.stop = 'entries';
    else if ((this.seen & 63) === 0) this.check();
    return this.stop !== null;
  }

  /** Ends the walk for a reason of the scan's own (its result cap). */
  halt(reason: StopReason): void {
    if (!this.stop) this.stop = reason;
  }

  /** Checks the clock and the flag now (between slow steps such as hashing a large file). */
  check(): boolean {
    if (this.stop) return true;
    if (Atomics.load(this.flag, 0) === 1) this.stop = 'cancelled';
    else if (Date.now() >= this.deadline) this.stop = 'budget';
    return this.stop !== null;
  }
}

export const newCounts = (): ScanCounts => ({ files: 0, dirs: 0, bytes: 0, errors: 0, skipped: 0 });

/**
 * Walks the trees under `roots` depth first, with synchronous calls: it runs in a worker thread, where a blocking
 * readdir costs the event loop nothing and is several times cheaper than a promise per entry. Symbolic links are
 * reported as files and never followed, so a link loop cannot make it turn in circles; folders on another
 * filesystem (with `oneFileSystem`) and past `maxDepth` are counted as skipped. A folder or entry that cannot be
 * read is counted in `errors` and the walk goes on. With `stat: false` folders are still lstat'ed (their device),
 * files only on the sink's demand (`st` is undefined).
 */
export function walkTrees(
  roots: string[], limits: ScanLimits, guard: WalkGuard, counts: ScanCounts, sink: WalkSink,
  options: { stat: boolean; onProgress?(folder: string): void } = { stat: true },
): void {
  const skip = new Set(limits.skip);
  // Hard-linked files are counted once: only inodes with more than one link are remembered.
  const linked = new Set<string>();
  for (const root of roots) {
    let rootStat: Stats;
    try { rootStat = lstatSync(root); } catch { counts.errors++; continue; }
    if (!rootStat.isDirectory()) { counts.errors++; continue; }
    const stack: { path: string; index: number; depth: number }[] = [
      { path: root, index: sink.folder(-1, root, rootStat), depth: 0 },
    ];
    counts.dirs++;
    counts.bytes += rootStat.blocks * 512;
    while (stack.length > 0) {
      if (guard.check()) return;
      const { path, index, depth } = stack.pop()!;
      options.onProgress?.(path);
      let entries: Dirent[];
      try { entries = readdirSync(path, { withFileTypes: true }); } catch { counts.errors++; continue; }
      const base = path.endsWith('/') ? path : `${path}/`;
      let n = 0;
      for (const entry of entries) {
        if (guard.tick()) return;
        // A folder of 200,000 files still reports progress while it is listed.
        if ((++n & 1023) === 0) options.onProgress?.(path);
        const child = base + entry.name;
        if (entry.isDirectory()) {
          if (skip.has(child)) { counts.skipped++; continue; }
          let st: Stats;
          try { st = lstatSync(child); } catch { counts.errors++; continue; }
          if ((limits.oneFileSystem && st.dev !== rootStat.dev) || depth + 1 > limits.maxDepth) { counts.skipped++; continue; }
          counts.dirs++;
          counts.bytes += st.blocks * 512;
          stack.push({ path: child, index: sink.folder(index, child, st), depth: depth + 1 });
          continue;
        }
        let st: Stats | undefined;
        if (options.stat || entry.isSymbolicLink()) {
          try { st = lstatSync(child); } catch { counts.errors++; continue; }
          if (st.nlink > 1 && !st.isDirectory()) {
            const key = `${st.dev}:${st.ino}`;
            if (linked.has(key)) continue;
            linked.add(key);
          }
          counts.bytes += st.blocks * 512;
        }
        if (entry.isSymbolicLink()) counts.skipped++;
        else counts.files++;
        sink.file(index, entry.name, child, st, entry);
      }
    }
  }
}
