// Benchmark: the duplicate finder over 10,000 files (bench/README.md, the duplicates row) against a bare SHA-256 of
// every file (read whole, hashed, on one thread: what a naive finder does). The tree holds files of 40 sizes from
// 8 KB to 320 KB, random contents, one in ten a copy of another: most files share a size, so the 64 KB fingerprint
// stage reads nearly all of them, and only true copies are hashed whole. Rounds alternate after a warm-up of each
// (a warm page cache for both). The finder must find exactly the copies made. Prints
// `duplicates: X ms for 10,000 files (ratio X.XX vs hashing every file)`.
//
// Usage: node dist/bench/duplicates.js [files, default 10000] [rounds, default 3]
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScanJobs } from '../plugins/files/scan-jobs.js';
import type { DuplicateGroup } from '../plugins/files/scan/scan-types.js';
import { tempDir } from '../tests/support/tmp.js';
import { median } from './support/median.js';

const FILES = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 3);

const dir = tempDir('vigil-bench-duplicates-');
const root = join(dir.path, 'tree');
try {
  const made: { path: string; data: Buffer }[] = [];
  let copies = 0;
  for (let i = 0; i < FILES; i++) {
    const folder = join(root, `folder-${i % 50}`);
    if (i < 50) mkdirSync(folder, { recursive: true });
    let data: Buffer;
    if (i % 10 === 9) { data = made[(i * 7919) % made.length].data; copies++; } else data = randomBytes(8192 * (1 + (i % 40)));
    const path = join(folder, `file-${i}.bin`);
    writeFileSync(path, data);
    made.push({ path, data });
  }

  const bare = (): number => {
    const t = performance.now();
    for (const folder of readdirSync(root)) {
      for (const name of readdirSync(join(root, folder))) createHash('sha256').update(readFileSync(join(root, folder, name))).digest('base64');
    }
    return performance.now() - t;
  };
  const jobs = new ScanJobs({ maxRunning: 1, keepMs: 60_000, keepMax: 2, graceMs: 1500, progressMs: 250 });
  const find = async (): Promise<{ ms: number; groups: DuplicateGroup[] }> => {
    const t = performance.now();
    const job = jobs.start({ kind: 'duplicates', root, minSize: 1, maxGroups: 100_000 }, { budgetMs: 300_000, maxEntries: 10_000_000, maxDepth: 64, oneFileSystem: true, skip: [] })!;
    await job.finished;
    return { ms: performance.now() - t, groups: (job.result as { groups: DuplicateGroup[] }).groups };
  };

  bare();
  const first = await find();
  const extra = first.groups.reduce((n, g) => n + g.paths.length - 1, 0);
  if (extra !== copies) throw new Error(`the finder found ${extra} extra copies, ${copies} were made`);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const a = (await find()).ms;
    const b = bare();
    ours.push(a);
    theirs.push(b);
    console.log(`  round ${round + 1}: finder ${a.toFixed(0)} ms, hash of every file ${b.toFixed(0)} ms`);
  }
  const m = median(ours);
  const base = median(theirs);
  console.log(`duplicates: ${m.toFixed(0)} ms for ${FILES.toLocaleString('en-US')} files, ${copies} copies (ratio ${(m / base).toFixed(2)} vs hashing every file, ${base.toFixed(0)} ms)`);
} finally {
  dir.cleanup();
}
