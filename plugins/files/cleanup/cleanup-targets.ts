import { execFile } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { httpError } from '@vigil/plugin-sdk';
import { FilesErrors } from '../errors.js';
import type { ScanJobs } from '../scan-jobs.js';
import type { SizesTree } from '../scan/scan-types.js';

export const CLEANUP_IDS = ['user-cache', 'trash', 'apt', 'journal'] as const;
export type CleanupId = typeof CLEANUP_IDS[number];

/** What a clean-up would remove, measured first: the page shows the size before anything is removed. */
export interface CleanupTarget {
  id: CleanupId;
  title: string;
  /** The folder measured (the journal: null, journalctl measures it). */
  path: string | null;
  /** Bytes now; null when it could not be measured. */
  bytes: number | null;
  /** False when the measure stopped at its budget (bytes is a lower bound) or failed. */
  complete: boolean;
  /** What cleaning does, and what stands in the way. */
  note: string;
  /** Whether this process may clean it (the package cache and the journal need root). */
  can_clean: boolean;
}

/** Each folder is measured under this budget, ms. */
const MEASURE_MS = 10_000;
const TOOL_MS = 60_000;

const run = (program: string, args: string[], timeoutMs: number) => new Promise<string>((resolve, reject) => {
  execFile(program, args, { timeout: timeoutMs, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
    if (err) reject(httpError(FilesErrors.TOOL, `${program} ${args.join(' ')}: ${(stderr.trim().split('\n').pop() || err.message).slice(0, 300)}`));
    else resolve(stdout + stderr);
  });
});

/** `journalctl --disk-usage` says "… take up 1.5G in the file system." (powers of 1024). */
export function parseJournalUsage(text: string): number | null {
  const m = /take up ([\d.]+)\s*([BKMGTP]?)/.exec(text);
  if (!m) return null;
  return Math.round(Number(m[1]) * 1024 ** 'BKMGTP'.indexOf(m[2] || 'B'));
}

export class Cleanup {
  private readonly root = typeof process.getuid === 'function' && process.getuid() === 0;

  constructor(private readonly jobs: ScanJobs, private readonly trashDir: string, private readonly cacheDir = process.env.XDG_CACHE_HOME || join(homedir(), '.cache')) {}

  private async measure(path: string): Promise<{ bytes: number | null; complete: boolean }> {
    const job = this.jobs.start({ kind: 'sizes', root: path }, { budgetMs: MEASURE_MS, maxEntries: 5_000_000, maxDepth: 256, oneFileSystem: true, skip: [] });
    if (!job) return { bytes: null, complete: false };
    await job.finished;
    const tree = job.result as SizesTree | null;
    // A folder that does not exist (no apt here) or cannot be read: not measured.
    if (!tree || tree.total.length === 0) return { bytes: null, complete: false };
    return { bytes: tree.total[0], complete: !job.stop };
  }

  async targets(): Promise<CleanupTarget[]> {
    const needsRoot = this.root ? '' : ' Needs root: Vigil does not run as root, so run it in a terminal with sudo.';
    const [cache, trash, apt, journal] = await Promise.all([
      this.measure(this.cacheDir),
      this.measure(this.trashDir),
      this.measure('/var/cache/apt/archives'),
      run('journalctl', ['--disk-usage'], 5000).then((t) => parseJournalUsage(t), () => null),
    ]);
    return [
      { id: 'user-cache', title: 'Your caches', path: this.cacheDir, ...cache, can_clean: true,
        note: 'Everything under ~/.cache: programs make it again when they need it (thumbnails, browsers\' and build tools\' caches).' },
      { id: 'trash', title: 'Trash', path: this.trashDir, ...trash, can_clean: true, note: 'Empties the trash: its items cannot be restored afterwards.' },
      { id: 'apt', title: 'Package cache (apt)', path: '/var/cache/apt/archives', ...apt, can_clean: this.root,
        note: `Downloaded .deb files, as apt-get clean removes them.${needsRoot}` },
      { id: 'journal', title: 'Old journal files', path: null, bytes: journal, complete: journal !== null, can_clean: this.root,
        note: `The system journal past two weeks, as journalctl --vacuum-time=2weeks removes it.${journal === null ? ' journalctl could not measure it here.' : ''}${needsRoot}` },
    ];
  }

  /** Cleans one target; answers the bytes before and after. */
  async clean(id: CleanupId): Promise<{ id: CleanupId; before: number | null; after: number | null }> {
    const targets = await this.targets();
    const target = targets.find((t) => t.id === id)!;
    if (!target.can_clean) throw httpError(FilesErrors.NEEDS_ROOT, `cleaning ${target.title} needs root; run ${id === 'apt' ? '`sudo apt-get clean`' : '`sudo journalctl --vacuum-time=2weeks`'} in a terminal`);
    switch (id) {
      case 'user-cache': await emptyFolder(this.cacheDir); break;
      case 'trash': await emptyFolder(join(this.trashDir, 'files')); await emptyFolder(join(this.trashDir, 'info')); await rm(join(this.trashDir, 'directorysizes'), { force: true }); break;
      case 'apt': await run('apt-get', ['clean'], TOOL_MS); break;
      case 'journal': await run('journalctl', ['--vacuum-time=2weeks'], TOOL_MS); break;
    }
    const after = (await this.targets()).find((t) => t.id === id)!;
    return { id, before: target.bytes, after: after.bytes };
  }
}

/** Removes what a folder holds, keeping the folder (its owner and mode stay). */
async function emptyFolder(path: string): Promise<void> {
  let names: string[];
  try { names = await readdir(path); } catch { return; }
  for (const name of names) await rm(join(path, name), { recursive: true, force: true });
}
