// What the main thread and a scan worker say to each other. Everything here crosses a worker boundary by structured
// clone, so it is plain data: no class instances, no functions.

/** Why a scan ended before it had seen everything; null when it finished. */
export type StopReason = 'budget' | 'cancelled' | 'entries' | 'results' | null;

/** Bounds every scan runs under. */
export interface ScanLimits {
  /** Wall-clock budget in ms, from the worker's start. */
  budgetMs: number;
  /** Entries (files, folders, links) looked at, at most. */
  maxEntries: number;
  /** Folder levels below a root, at most (a deeper folder is counted as skipped). */
  maxDepth: number;
  /** Stay on the root's filesystem (ncdu's -x): a mount point below the root is not entered. */
  oneFileSystem: boolean;
  /** Absolute paths never entered (pseudo filesystems such as /proc when a scan starts at /). */
  skip: string[];
}

export interface SizesParams { kind: 'sizes'; root: string }
export interface DuplicatesParams { kind: 'duplicates'; root: string; minSize: number; maxGroups: number }
export interface OldFilesParams {
  kind: 'old-files'; root: string; minSize: number;
  /** Epoch ms: a file whose clock time is before this is old. */
  before: number;
  /** Which time says when a file was last used: atime where the mount records it, else mtime. */
  clock: 'atime' | 'mtime';
  maxResults: number;
}
export interface SearchParams {
  kind: 'search'; roots: string[];
  /** A regular expression's source when `regex`, else text matched case-insensitively anywhere in the name. */
  pattern: string; regex: boolean; caseSensitive: boolean; maxResults: number;
}
export type ScanParams = SizesParams | DuplicatesParams | OldFilesParams | SearchParams;
export type ScanKind = ScanParams['kind'];

/** Running counts every kind reports. */
export interface ScanCounts {
  files: number;
  dirs: number;
  /** Disk usage of what was seen, bytes (allocated blocks, as `du` counts; a hard-linked file once). */
  bytes: number;
  /** Entries that could not be read (permission, vanished while walking, unreadable name): counted, never fatal. */
  errors: number;
  /** Symbolic links (never followed), other filesystems and folders past the depth limit: not entered. */
  skipped: number;
}

/** One file in an answer. */
export interface FileRow { path: string; bytes: number; mtime_ms: number; atime_ms: number }

export interface SizesChild { name: string; bytes: number; dir: boolean }

/**
 * The folder tree a sizes scan leaves, flat and in typed arrays so that handing it to the main thread costs a copy
 * of a few buffers, not one object per folder (a whole disk has 100,000 folders and more). Folder i's absolute path
 * is `paths` from `pathAt[i]` to `pathAt[i + 1] - 1` (paths joined by NUL, which no path holds, with a NUL before
 * the first); its parent is `parent[i]` (-1 for the root); `total[i]` its disk usage with everything below, `own[i]`
 * that of its own files, `files[i]` the files below it. `topDir`, `topBytes` and `topNames` (joined the same way,
 * offsets in `topAt`) list each folder's largest files, at most TOP_FILES each.
 */
export interface SizesTree {
  paths: string;
  pathAt: Int32Array;
  parent: Int32Array;
  total: Float64Array;
  own: Float64Array;
  files: Float64Array;
  topDir: Int32Array;
  topBytes: Float64Array;
  topNames: string;
  topAt: Int32Array;
}

export interface DuplicateGroup {
  bytes: number;
  /** Bytes that removing all copies but one would free: bytes × (copies − 1). */
  wasted: number;
  /** How equality was proved: the whole file hashed, or a file no larger than the fingerprint (fingerprint = whole file). */
  proof: 'full-hash' | 'fingerprint';
  paths: string[];
}

export interface DuplicatesProgress {
  phase: 'walking' | 'fingerprint' | 'hashing' | 'done';
  /** Files sharing a size with another file: the candidates the fingerprint stage reads. */
  candidates: number;
  fingerprinted: number;
  /** Bytes the whole-file stage must read, and has read. */
  hash_bytes_total: number;
  hash_bytes_done: number;
}

/** What a worker posts: progress every few hundred ms, then one `done`. */
export type WorkerMessage =
  | { type: 'progress'; counts: ScanCounts; current: string; partial: unknown }
  | { type: 'done'; counts: ScanCounts; stop: StopReason; result: unknown }
  | { type: 'failed'; message: string };

export interface WorkerInput {
  params: ScanParams;
  limits: ScanLimits;
  /** Int32Array(1) over it: the main thread stores 1 to cancel. Read with Atomics between entries. */
  cancel: SharedArrayBuffer;
  /** How often progress is posted, ms. */
  progressMs: number;
}
