import type { ScanJob } from './scan-jobs.js';
import { baseName } from './scan/folder-sizes.js';
import type { SearchHit } from './scan/name-search.js';
import type { DuplicateGroup, DuplicatesProgress, FileRow, SizesChild, SizesTree } from './scan/scan-types.js';

/** Children listed per folder in an answer, largest first; the rest are summed. */
export const FOLDER_CHILDREN = 500;
/** Paths listed per duplicate group in an answer. */
export const GROUP_PATHS = 100;

export interface FolderChild { name: string; path: string; bytes: number; files: number | null; dir: boolean }
export interface FolderView {
  path: string; bytes: number; files: number | null;
  /** False while the scan runs: the figures grow as they are counted. */
  complete: boolean;
  children: FolderChild[];
  /** Files of this folder not listed one by one (each folder keeps its largest few), and entries past the cap. */
  other: { count: number; bytes: number };
}

/**
 * The drill-down of a finished sizes scan, read straight from its flat tree: no index is built (on a whole disk that
 * would hold the event loop for a tenth of a second); each question is one pass over typed arrays, about a
 * millisecond per 100,000 folders.
 */
export class SizesIndex {
  constructor(readonly tree: SizesTree) {}

  private pathOf(i: number): string {
    return this.tree.paths.slice(this.tree.pathAt[i], this.tree.pathAt[i + 1] - 1);
  }

  /** The folder's index: its path found in the joined paths, then its place by a binary search of the offsets. */
  private indexOf(path: string): number | undefined {
    const at = this.tree.paths.indexOf(`\0${path}\0`);
    if (at < 0) return undefined;
    const starts = this.tree.pathAt;
    let lo = 0;
    let hi = starts.length - 2;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] === at + 1) return mid;
      if (starts[mid] < at + 1) lo = mid + 1; else hi = mid - 1;
    }
    return undefined;
  }

  folder(path: string): FolderView | undefined {
    const i = this.indexOf(path);
    if (i === undefined) return undefined;
    const t = this.tree;
    const base = path.endsWith('/') ? path : `${path}/`;
    const rows: FolderChild[] = [];
    let childFiles = 0;
    for (let c = i + 1; c < t.parent.length; c++) {
      if (t.parent[c] !== i) continue;
      const childPath = this.pathOf(c);
      rows.push({ name: baseName(childPath), path: childPath, bytes: t.total[c], files: t.files[c], dir: true });
      childFiles += t.files[c];
    }
    let topCount = 0;
    for (let k = 0; k < t.topDir.length; k++) {
      if (t.topDir[k] !== i) continue;
      const name = t.topNames.slice(t.topAt[k], t.topAt[k + 1] - 1);
      rows.push({ name, path: base + name, bytes: t.topBytes[k], files: null, dir: false });
      topCount++;
    }
    rows.sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name));
    const listed = rows.slice(0, FOLDER_CHILDREN);
    const ownFiles = t.files[i] - childFiles;
    const listedBytes = listed.reduce((n, r) => n + r.bytes, 0);
    return {
      path, bytes: t.total[i], files: t.files[i], complete: true, children: listed,
      // Files kept out of the per-folder top list, and rows past the cap; their bytes with the folder entries' own.
      other: { count: Math.max(0, ownFiles - topCount) + (rows.length - listed.length), bytes: Math.max(0, t.total[i] - listedBytes) },
    };
  }
}

export interface ScanView {
  id: string;
  kind: ScanJob['params']['kind'];
  state: ScanJob['state'];
  stop: ScanJob['stop'];
  /** The early stop in words, or what a failed scan said; null for a scan that finished or still runs. */
  note: string | null;
  roots: string[];
  started_at: string;
  elapsed_ms: number;
  budget_ms: number;
  counts: ScanJob['counts'];
  /** The folder being read now (the last one when it ended). */
  current: string;
  folder?: FolderView;
  duplicates?: DuplicatesProgress & { groups: DuplicateGroup[]; groups_total: number; wasted: number; unconfirmed: number };
  old_files?: { clock: 'atime' | 'mtime'; clock_note: string; rows: FileRow[]; matched: number; matched_bytes: number };
  hits?: SearchHit[];
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function stopNote(job: ScanJob): string | null {
  if (job.state === 'failed') return `the scan failed: ${job.error}`;
  switch (job.stop) {
    case 'budget': return `stopped early: the ${seconds(job.limits.budgetMs)} budget ran out, so the figures are what was counted until then (a lower bound)`;
    case 'cancelled': return 'stopped early: cancelled; the figures are what was counted until then';
    case 'entries': return `stopped early at ${job.limits.maxEntries.toLocaleString('en-US')} entries (files.max_entries); the figures are a lower bound`;
    case 'results': return 'stopped at the result cap: there may be more matches; narrow the pattern or the folder';
    case 'deadline': return 'stopped early: one step did not end within the budget (a pattern that backtracks, or a filesystem that does not answer) and the scan was ended; the results are those found before';
    default: return null;
  }
}

/** A scan as the API answers it: the progress while it runs, the answer once it ends (bounded either way). */
export function scanView(job: ScanJob, now: number, sizes?: SizesIndex, clockNote?: string): ScanView {
  const p = job.params;
  const view: ScanView = {
    id: job.id, kind: p.kind, state: job.state, stop: job.stop, note: stopNote(job),
    roots: p.kind === 'search' ? p.roots : [p.root], started_at: new Date(job.startedAt).toISOString(),
    elapsed_ms: job.elapsedMs(now), budget_ms: job.limits.budgetMs, counts: job.counts, current: job.current,
  };
  const data = (job.result ?? job.partial) as Record<string, unknown> | null;
  switch (p.kind) {
    case 'sizes': {
      const whole = sizes?.folder(p.root);
      if (whole) { view.folder = whole; break; }
      const children = ((data as { children?: SizesChild[] } | null)?.children ?? []);
      const base = p.root.endsWith('/') ? p.root : `${p.root}/`;
      view.folder = {
        path: p.root, bytes: job.counts.bytes, files: job.counts.files, complete: false,
        children: children.map((c) => ({ name: c.name, path: base + c.name, bytes: c.bytes, files: null, dir: c.dir })),
        other: { count: 0, bytes: 0 },
      };
      break;
    }
    case 'duplicates': {
      const d = (data ?? {}) as { progress?: DuplicatesProgress; groups?: DuplicateGroup[]; groups_total?: number; wasted?: number; unconfirmed?: number };
      const progress = d.progress ?? { phase: 'walking', candidates: 0, fingerprinted: 0, hash_bytes_total: 0, hash_bytes_done: 0 };
      const groups = (d.groups ?? []).map((g) => ({ ...g, paths: g.paths.slice(0, GROUP_PATHS) }));
      view.duplicates = {
        ...progress, groups, groups_total: d.groups_total ?? groups.length,
        wasted: d.wasted ?? groups.reduce((n, g) => n + g.wasted, 0), unconfirmed: d.unconfirmed ?? 0,
      };
      break;
    }
    case 'old-files': {
      const o = (data ?? {}) as { rows?: FileRow[]; matched?: number; matched_bytes?: number };
      view.old_files = { clock: p.clock, clock_note: clockNote ?? '', rows: o.rows ?? [], matched: o.matched ?? 0, matched_bytes: o.matched_bytes ?? 0 };
      break;
    }
    case 'search':
      view.hits = ((data as { hits?: SearchHit[] } | null)?.hits ?? []);
      break;
  }
  return view;
}
