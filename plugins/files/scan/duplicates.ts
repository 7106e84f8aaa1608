import { closeSync, openSync, readSync, type Dirent, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import type { DuplicateGroup, DuplicatesParams, DuplicatesProgress } from './scan-types.js';
import type { WalkGuard, WalkSink } from './tree-walk.js';

/** Bytes read from the start of each candidate: files that differ mostly differ here already (perch's 64 KB). */
export const FINGERPRINT_BYTES = 64 * 1024;
const CHUNK = 1024 * 1024;
/** Groups sent with each progress message. */
const PARTIAL_GROUPS = 50;

interface Candidate { path: string; bytes: number }

/**
 * The three stages: files grouped by size (only sizes with two or more files go on), then by a hash of their
 * first 64 KB, then by a hash of the whole file. A file no larger than the fingerprint is proved equal by it.
 * Hard links to one inode are one file (the walk reports an inode once). Empty files are left out.
 */
export class DuplicateFinder implements WalkSink {
  readonly progress: DuplicatesProgress = { phase: 'walking', candidates: 0, fingerprinted: 0, hash_bytes_total: 0, hash_bytes_done: 0 };
  readonly groups: DuplicateGroup[] = [];
  private bySize = new Map<number, Candidate[]>();
  private readonly buffer = Buffer.allocUnsafe(CHUNK);
  /** Candidates not proved or disproved when the scan stopped early. */
  unconfirmed = 0;
  /** Called between the 1 MiB steps of a large file, so progress is posted while one file takes long. */
  onChunk: () => void = () => {};

  constructor(private readonly params: DuplicatesParams, private readonly guard: WalkGuard) {}

  folder(): number { return 0; }

  file(_dir: number, _name: string, path: string, st: Stats | undefined, entry: Dirent): void {
    if (!st || !entry.isFile() || st.size < Math.max(1, this.params.minSize)) return;
    const list = this.bySize.get(st.size);
    if (list) list.push({ path, bytes: st.size });
    else this.bySize.set(st.size, [{ path, bytes: st.size }]);
  }

  /** The fingerprint and hashing stages, after the walk. `onStep` is called between files (progress, budget). */
  compare(onStep: () => void, onError: () => void): void {
    const sameSize = [...this.bySize.values()].filter((l) => l.length > 1);
    this.bySize = new Map();
    // Largest first: where the most space is at stake is settled first if the budget runs out.
    sameSize.sort((a, b) => b[0].bytes - a[0].bytes);
    this.progress.candidates = sameSize.reduce((n, l) => n + l.length, 0);
    this.progress.phase = 'fingerprint';
    const full: Candidate[][] = [];
    let left = this.progress.candidates;
    for (const list of sameSize) {
      if (this.guard.check()) { this.unconfirmed = left; return; }
      const byPrint = this.groupBy(list, (c) => this.digest(c.path, Math.min(FINGERPRINT_BYTES, c.bytes)), () => { this.progress.fingerprinted++; onStep(); }, onError);
      if (this.guard.stop) { this.unconfirmed = left; return; }
      left -= list.length;
      for (const same of byPrint) {
        if (same[0].bytes <= FINGERPRINT_BYTES) this.add(same, 'fingerprint');
        else { full.push(same); this.progress.hash_bytes_total += same[0].bytes * same.length; }
      }
    }
    this.progress.phase = 'hashing';
    // Sizes whose fingerprints all differed are settled; what is left to prove is in `full`.
    left = full.reduce((n, l) => n + l.length, 0);
    for (const list of full) {
      if (this.guard.check()) { this.unconfirmed = left; return; }
      const byHash = this.groupBy(list, (c) => this.digest(c.path, c.bytes), onStep, onError);
      if (this.guard.stop) { this.unconfirmed = left; return; }
      left -= list.length;
      for (const same of byHash) this.add(same, 'full-hash');
    }
    this.progress.phase = 'done';
  }

  /** The walk stopped early: every file sharing a size with another seen so far is left unconfirmed. */
  abandon(): void {
    for (const list of this.bySize.values()) if (list.length > 1) this.unconfirmed += list.length;
  }

  partial(): { progress: DuplicatesProgress; groups: DuplicateGroup[] } {
    return { progress: this.progress, groups: this.sorted().slice(0, PARTIAL_GROUPS) };
  }

  result(): { progress: DuplicatesProgress; groups: DuplicateGroup[]; unconfirmed: number; wasted: number; groups_total: number } {
    const sorted = this.sorted();
    return {
      progress: this.progress, groups: sorted.slice(0, this.params.maxGroups), unconfirmed: this.unconfirmed,
      wasted: sorted.reduce((n, g) => n + g.wasted, 0), groups_total: sorted.length,
    };
  }

  private sorted(): DuplicateGroup[] {
    return [...this.groups].sort((a, b) => b.wasted - a.wasted || a.paths[0].localeCompare(b.paths[0]));
  }

  private add(same: Candidate[], proof: DuplicateGroup['proof']): void {
    const bytes = same[0].bytes;
    this.groups.push({ bytes, wasted: bytes * (same.length - 1), proof, paths: same.map((c) => c.path).sort() });
  }

  /** Splits `list` by `key`, keeping groups of two or more; a file that cannot be read leaves its group. */
  private groupBy(list: Candidate[], key: (c: Candidate) => string | undefined, onStep: () => void, onError: () => void): Candidate[][] {
    const groups = new Map<string, Candidate[]>();
    for (const c of list) {
      if (this.guard.check()) return [];
      const k = key(c);
      if (this.guard.stop) return [];
      onStep();
      if (k === undefined) { onError(); continue; }
      const g = groups.get(k);
      if (g) g.push(c); else groups.set(k, [c]);
    }
    return [...groups.values()].filter((g) => g.length > 1);
  }

  /** SHA-256 of the first `length` bytes, read 1 MiB at a time; undefined when the file cannot be read or shrank. */
  private digest(path: string, length: number): string | undefined {
    let fd: number;
    try { fd = openSync(path, 'r'); } catch { return undefined; }
    try {
      const hash = createHash('sha256');
      let at = 0;
      while (at < length) {
        const n = readSync(fd, this.buffer, 0, Math.min(CHUNK, length - at), at);
        if (n === 0) return undefined;
        hash.update(this.buffer.subarray(0, n));
        at += n;
        if (length > FINGERPRINT_BYTES) {
          this.progress.hash_bytes_done += n;
          this.onChunk();
          // A large file is hashed in 1 MiB steps: the budget and the cancel flag are checked between them.
          if (this.guard.check()) return undefined;
        }
      }
      return hash.digest('base64');
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }
}
