// Scans in their worker threads, in this process: the event loop stays free while one walks a large folder and while
// a catastrophic pattern spins (its worker is ended at the deadline), and the answers are exact.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ScanJobs } from '../../../../plugins/files/scan-jobs.js';
import type { ScanLimits, SizesTree } from '../../../../plugins/files/scan/scan-types.js';
import { scaledTimeout } from '../../../support/net.js';
import { makeManyFiles } from '../../../support/file-trees.js';
import { tempDir } from '../../../support/tmp.js';

const work = tempDir('vigil-scan-jobs-');
const limits = (o: Partial<ScanLimits> = {}): ScanLimits => ({ budgetMs: 60_000, maxEntries: 10_000_000, maxDepth: 256, oneFileSystem: true, skip: [], ...o });
const jobs = new ScanJobs({ maxRunning: 2, keepMs: 60_000, keepMax: 8, graceMs: 500, progressMs: 100 });

/** The worst event-loop delay while `fn` runs, ms. */
async function lagWhile(fn: () => Promise<void>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try { await fn(); } finally { h.disable(); }
  return h.max / 1e6;
}

test.after(() => work.cleanup());

test('a folder of 50,000 files: counted exactly, and the event loop free while it is walked', async () => {
  const dir = join(work.path, 'many');
  makeManyFiles(dir, 50_000);
  const job = jobs.start({ kind: 'sizes', root: dir }, limits())!;
  const lag = await lagWhile(() => job.finished);
  assert.is(job.state, 'done');
  assert.is(job.stop, null);
  assert.is(job.counts.files, 50_000);
  assert.is((job.result as SizesTree).files[0], 50_000);
  assert.ok(lag < scaledTimeout(200), `the event loop was held ${lag.toFixed(1)} ms`);
});

test('a pattern that backtracks catastrophically: the worker is ended at the deadline, the loop stays free', async () => {
  const dir = join(work.path, 'evil');
  mkdirSync(dir);
  writeFileSync(join(dir, 'aaa-found'), '');
  writeFileSync(join(dir, `${'a'.repeat(36)}!`), '');
  const job = jobs.start({ kind: 'search', roots: [dir], pattern: '^(a+)+$|found', regex: true, caseSensitive: false, maxResults: 10 }, limits({ budgetMs: 300 }))!;
  const lag = await lagWhile(() => job.finished);
  assert.is(job.stop, 'deadline');
  assert.ok(job.elapsedMs(Date.now()) < scaledTimeout(5000));
  assert.ok(lag < scaledTimeout(200), `the event loop was held ${lag.toFixed(1)} ms`);
});

test('a link loop and a deep chain: links are never followed, depth is bounded and counted', async () => {
  const dir = join(work.path, 'loops');
  let deep = join(dir, 'deep');
  mkdirSync(deep, { recursive: true });
  for (let i = 0; i < 20; i++) { deep = join(deep, 'd'); mkdirSync(deep); }
  symlinkSync(dir, join(dir, 'up'));
  symlinkSync(join(dir, 'b'), join(dir, 'a'));
  symlinkSync(join(dir, 'a'), join(dir, 'b'));
  const job = jobs.start({ kind: 'sizes', root: dir }, limits({ maxDepth: 10 }))!;
  await job.finished;
  assert.is(job.stop, null);
  assert.is(job.counts.dirs, 11, 'the root and ten levels');
  assert.is(job.counts.skipped, 3 + 1, 'three links and the eleventh level');
});

test('at most maxRunning at once; cancel answers with what was counted', async () => {
  const dir = join(work.path, 'many');
  const a = jobs.start({ kind: 'search', roots: [dir], pattern: 'x', regex: false, caseSensitive: false, maxResults: 10 }, limits())!;
  const b = jobs.start({ kind: 'search', roots: [dir], pattern: 'y', regex: false, caseSensitive: false, maxResults: 10 }, limits())!;
  assert.is(jobs.start({ kind: 'sizes', root: dir }, limits()), undefined);
  a.cancel();
  b.cancel();
  await Promise.all([a.finished, b.finished]);
  assert.is(a.stop, 'cancelled');
  assert.ok(jobs.start({ kind: 'sizes', root: dir }, limits({ budgetMs: 100 })));
  await jobs.stopAll();
});

test.run();
