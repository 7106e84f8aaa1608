import type { Stats } from 'node:fs';
import type { ScanCounts, SizesChild, SizesTree } from './scan-types.js';
import type { WalkSink } from './tree-walk.js';

/** The largest files kept per folder for the drill-down (the rest are summed as "other files"). */
export const TOP_FILES = 8;
/** Children of the root sent with each progress message. */
const PARTIAL_CHILDREN = 100;

/**
 * ncdu's model: every folder's own usage while walking, totals summed up the tree at the end. For the live view
 * each folder also knows which child of the root it lies under (`branch`), so the root's children grow as they are
 * counted without walking up the tree per file.
 */
export class FolderSizes implements WalkSink {
  private readonly paths: string[] = [];
  private readonly parent: number[] = [];
  private readonly own: number[] = [];
  private readonly files: number[] = [];
  private readonly branch: number[] = [];
  private readonly top = new Map<number, [string, number][]>();
  /** Running totals of the root's children: folder index → bytes, and files directly in the root by name. */
  private readonly branchBytes = new Map<number, number>();
  private readonly rootFiles: [string, number][] = [];

  folder(parent: number, path: string, st: Stats | undefined): number {
    const index = this.paths.length;
    this.paths.push(path);
    this.parent.push(parent);
    const bytes = st ? st.blocks * 512 : 0;
    this.own.push(bytes);
    this.files.push(0);
    const branch = parent === -1 ? -1 : parent === 0 ? index : this.branch[parent];
    this.branch.push(branch);
    if (branch >= 0) this.branchBytes.set(branch, (this.branchBytes.get(branch) ?? 0) + bytes);
    return index;
  }

  file(dir: number, name: string, _path: string, st: Stats | undefined): void {
    const bytes = st ? st.blocks * 512 : 0;
    this.own[dir] += bytes;
    this.files[dir]++;
    const branch = this.branch[dir];
    if (branch >= 0) this.branchBytes.set(branch, (this.branchBytes.get(branch) ?? 0) + bytes);
    else if (this.rootFiles.length < 10_000) this.rootFiles.push([name, bytes]);
    let list = this.top.get(dir);
    if (!list) { list = []; this.top.set(dir, list); }
    if (list.length < TOP_FILES) {
      list.push([name, bytes]);
      list.sort((a, b) => b[1] - a[1]);
    } else if (bytes > list[TOP_FILES - 1][1]) {
      list[TOP_FILES - 1] = [name, bytes];
      list.sort((a, b) => b[1] - a[1]);
    }
  }

  /** The root's children as counted so far, largest first: what the page shows while the walk goes on. */
  partial(): { children: SizesChild[] } {
    const children: SizesChild[] = [];
    for (const [index, bytes] of this.branchBytes) children.push({ name: baseName(this.paths[index]), bytes, dir: true });
    for (const [name, bytes] of this.rootFiles) children.push({ name, bytes, dir: false });
    children.sort((a, b) => b.bytes - a.bytes);
    return { children: children.slice(0, PARTIAL_CHILDREN) };
  }

  /** Sums each folder into its parent (children are always created after their parent, so one backward pass). */
  tree(): SizesTree {
    const n = this.paths.length;
    const total = Float64Array.from(this.own);
    const files = Float64Array.from(this.files);
    const parent = Int32Array.from(this.parent);
    for (let i = n - 1; i > 0; i--) {
      const p = parent[i];
      if (p >= 0) { total[p] += total[i]; files[p] += files[i]; }
    }
    const [paths, pathAt] = joinNames(this.paths);
    const topDir: number[] = [];
    const topBytes: number[] = [];
    const names: string[] = [];
    for (const [dir, list] of this.top) for (const [name, bytes] of list) { topDir.push(dir); topBytes.push(bytes); names.push(name); }
    const [topNames, topAt] = joinNames(names);
    return {
      paths, pathAt, parent, total, own: Float64Array.from(this.own), files,
      topDir: Int32Array.from(topDir), topBytes: Float64Array.from(topBytes), topNames, topAt,
    };
  }
}

/** Names joined by NUL with one before the first, and where each starts (one more offset past the last). */
export function joinNames(names: string[]): [string, Int32Array] {
  const at = new Int32Array(names.length + 1);
  let offset = 1;
  for (let i = 0; i < names.length; i++) { at[i] = offset; offset += names[i].length + 1; }
  at[names.length] = offset;
  return [`\0${names.join('\0')}\0`, at];
}

export function baseName(path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || '/';
}

export type { ScanCounts };
