import type { Dirent, Stats } from 'node:fs';
import type { FileRow, OldFilesParams } from './scan-types.js';
import type { WalkSink } from './tree-walk.js';

const PARTIAL_ROWS = 50;

/**
 * Big files not used for a long time: files of at least `minSize` bytes whose clock time (atime where the mount
 * records it, else mtime) is before `before`, largest first. Memory: at most twice `maxResults` rows are held.
 */
export class OldFiles implements WalkSink {
  private rows: FileRow[] = [];
  /** Old files seen, and their bytes (also those past the row cap). */
  matched = 0;
  matchedBytes = 0;

  constructor(private readonly params: OldFilesParams) {}

  folder(): number { return 0; }

  file(_dir: number, _name: string, path: string, st: Stats | undefined, entry: Dirent): void {
    if (!st || !entry.isFile() || st.size < this.params.minSize) return;
    const used = this.params.clock === 'atime' ? Math.max(st.atimeMs, st.mtimeMs) : st.mtimeMs;
    if (used >= this.params.before) return;
    this.matched++;
    this.matchedBytes += st.size;
    this.rows.push({ path, bytes: st.size, mtime_ms: Math.round(st.mtimeMs), atime_ms: Math.round(st.atimeMs) });
    if (this.rows.length >= 2 * this.params.maxResults) this.trim(this.params.maxResults);
  }

  partial(): { rows: FileRow[]; matched: number; matched_bytes: number } {
    this.trim(this.params.maxResults);
    return { rows: this.rows.slice(0, PARTIAL_ROWS), matched: this.matched, matched_bytes: this.matchedBytes };
  }

  result(): { rows: FileRow[]; matched: number; matched_bytes: number } {
    this.trim(this.params.maxResults);
    return { rows: this.rows, matched: this.matched, matched_bytes: this.matchedBytes };
  }

  private trim(n: number): void {
    this.rows.sort((a, b) => b.bytes - a.bytes || a.path.localeCompare(b.path));
    if (this.rows.length > n) this.rows.length = n;
  }
}
