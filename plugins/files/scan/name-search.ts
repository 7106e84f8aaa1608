import { lstatSync, type Dirent, type Stats } from 'node:fs';
import type { FileRow, SearchParams } from './scan-types.js';
import type { WalkSink } from './tree-walk.js';

export interface SearchHit extends FileRow { dir: boolean }

/**
 * Names matched against a pattern: a regular expression (JavaScript syntax, run in this worker: a pattern that
 * backtracks without end holds only this thread, which the main thread ends at the deadline), or plain text
 * matched case-insensitively. Only matches are lstat'ed. Folders match too.
 */
export class NameSearch implements WalkSink {
  readonly hits: SearchHit[] = [];
  private readonly test: (name: string) => boolean;
  full = false;

  constructor(private readonly params: SearchParams, private readonly onFull: () => void) {
    if (params.regex) {
      const re = new RegExp(params.pattern, params.caseSensitive ? 'u' : 'iu');
      this.test = (name) => re.test(name);
    } else {
      const needle = params.caseSensitive ? params.pattern : params.pattern.toLowerCase();
      this.test = params.caseSensitive ? (name) => name.includes(needle) : (name) => name.toLowerCase().includes(needle);
    }
  }

  folder(_parent: number, path: string, st: Stats | undefined): number {
    if (_parent >= 0) this.consider(path.slice(path.lastIndexOf('/') + 1), path, st, true);
    return 0;
  }

  file(_dir: number, name: string, path: string, st: Stats | undefined, _entry: Dirent): void {
    this.consider(name, path, st, false);
  }

  private consider(name: string, path: string, st: Stats | undefined, dir: boolean): void {
    if (this.full || !this.test(name)) return;
    let s = st;
    if (!s) { try { s = lstatSync(path); } catch { /* vanished: listed without its figures */ } }
    this.hits.push({ path, dir, bytes: s?.size ?? 0, mtime_ms: Math.round(s?.mtimeMs ?? 0), atime_ms: Math.round(s?.atimeMs ?? 0) });
    if (this.hits.length >= this.params.maxResults) { this.full = true; this.onFull(); }
  }
}
