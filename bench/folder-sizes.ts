// Benchmark: folder sizes over a tree of 200,000 files (bench/README.md, the folder sizes row): the files plugin's
// scan (a worker thread walking with lstat, the per-folder tree kept for the drill-down) against `du -s -x` of the
// same tree, rounds alternated after one warm-up of each, so both read a warm dentry and inode cache. Both answers
// must agree to the byte. Prints `folder sizes: X ms for 200,000 files (ratio X.XX vs du -s)`.
//
// Usage: node dist/bench/folder-sizes.js [files, default 200000] [rounds, default 3]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ScanJobs } from '../plugins/files/scan-jobs.js';
import type { SizesTree } from '../plugins/files/scan/scan-types.js';
import { tempDir } from '../tests/support/tmp.js';
import { median } from './support/median.js';

const FILES = Number(process.argv[2] ?? 200_000);
const ROUNDS = Number(process.argv[3] ?? 3);
/** Files per folder: a few hundred folders, two levels deep, like a source tree or a mail store. */
const PER_FOLDER = 500;

const dir = tempDir('vigil-bench-folder-sizes-');
const root = join(dir.path, 'tree');
try {
  for (let f = 0; f * PER_FOLDER < FILES; f++) mkdirSync(join(root, `group-${f % 20}`, `folder-${f}`), { recursive: true });
  // touch through xargs, one folder's names at a time: 200,000 files in seconds.
  const script = `for d in group-*/folder-*; do (cd "$d" && seq -w 1 ${PER_FOLDER} | xargs touch); done`;
  const made = spawnSync('sh', ['-c', script], { cwd: root, stdio: 'ignore' });
  if (made.status !== 0) throw new Error('could not make the tree');

  const du = (): { ms: number; bytes: number } => {
    const t = performance.now();
    const out = execFileSync('du', ['-s', '-x', '-B1', root], { encoding: 'utf8' });
    return { ms: performance.now() - t, bytes: Number(out.split('\t')[0]) };
  };
  const jobs = new ScanJobs({ maxRunning: 1, keepMs: 60_000, keepMax: 2, graceMs: 1500, progressMs: 250 });
  const scan = async (): Promise<{ ms: number; bytes: number; files: number }> => {
    const t = performance.now();
    const job = jobs.start({ kind: 'sizes', root }, { budgetMs: 300_000, maxEntries: 50_000_000, maxDepth: 256, oneFileSystem: true, skip: [] })!;
    await job.finished;
    const tree = job.result as SizesTree;
    return { ms: performance.now() - t, bytes: tree.total[0], files: job.counts.files };
  };

  du();
  await scan();
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const a = await scan();
    const b = du();
    if (a.bytes !== b.bytes) throw new Error(`the scan counted ${a.bytes} bytes, du ${b.bytes}`);
    if (a.files < FILES) throw new Error(`the scan saw ${a.files} files of ${FILES}`);
    ours.push(a.ms);
    theirs.push(b.ms);
    console.log(`  round ${round + 1}: scan ${a.ms.toFixed(0)} ms, du ${b.ms.toFixed(0)} ms`);
  }
  const m = median(ours);
  const base = median(theirs);
  console.log(`folder sizes: ${m.toFixed(0)} ms for ${FILES.toLocaleString('en-US')} files (ratio ${(m / base).toFixed(2)} vs du -s, ${base.toFixed(0)} ms)`);
} finally {
  dir.cleanup();
}
