// The files plugin's scans in a real `vigil run` over real trees made by the test: duplicates with exact groups
// (equal size but different start, equal start but different tail, true copies, a hard link, links and a link
// loop, a name with a newline), big old files aged with utimes, folder sizes equal to `du`, an early stop at the
// budget, cancel, a pattern that backtracks catastrophically, and a folder of 200,000 files; the server answers
// other requests all along, and nothing is deleted or changed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, truncateSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, scaledTimeout, waitFor } from '../support/net.js';
import { makeAgedFiles, makeDuplicateTree, makeManyFiles, type DuplicateTree } from '../support/file-trees.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'storage-scans-dashboard-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

const work = tempDir('vigil-storage-scans-');
const root = join(work.path, 'tree');
let vigil: VigilProcess;
let base = '';
let dupes: DuplicateTree;
const many = join(root, 'many');

interface Scan {
  id: string; kind: string; state: string; stop: string | null; note: string | null; elapsed_ms: number; budget_ms: number;
  counts: { files: number; dirs: number; bytes: number; errors: number; skipped: number };
  folder?: { path: string; bytes: number; files: number | null; complete: boolean; children: { name: string; path: string; bytes: number; dir: boolean }[] };
  duplicates?: { phase: string; groups: { bytes: number; wasted: number; proof: string; paths: string[] }[]; unconfirmed: number; wasted: number };
  old_files?: { clock: string; clock_note: string; rows: { path: string; bytes: number }[]; matched: number };
  hits?: { path: string; dir: boolean }[];
}

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method, headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Starts a scan and waits for its end through the progress route, as the page does. */
async function scan(body: Record<string, unknown>): Promise<Scan> {
  const started = await call<Scan>('POST', '/api/storage/scans', body);
  assert.is(started.status, 202, JSON.stringify(started.body));
  const ended = await waitFor<Scan | undefined>(async () => {
    const r = await call<Scan>('GET', `/api/storage/scans/${started.body.id}`);
    return r.body.state !== 'running' ? r.body : undefined;
  }, { timeoutMs: 60_000, intervalMs: 100, what: `scan ${body.kind}` });
  return ended!;
}

/** While `during` runs, the server keeps answering: each health check within a generous bound. Returns the worst. */
async function responsiveWhile<T>(during: Promise<T>): Promise<{ result: T; worstMs: number; checks: number }> {
  let done = false;
  let worstMs = 0;
  let checks = 0;
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      const res = await fetch(`${base}/api/health`);
      await res.arrayBuffer();
      worstMs = Math.max(worstMs, performance.now() - t);
      checks++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    return { result: await during, worstMs, checks };
  } finally {
    done = true;
    await probe;
  }
}

test.before(async () => {
  dupes = makeDuplicateTree(join(root, 'dupes'));
  // Made before vigil starts: touch blocks this process for seconds, and an idle keep-alive socket would be closed meanwhile.
  makeManyFiles(many, 200_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
files: { roots: [${JSON.stringify(root)}], scan_roots: [${JSON.stringify(root)}], max_scans: 2 }
`);
  vigil = await startVigil(config, base);
});

test.after(async () => {
  await vigil?.stop();
  work.cleanup();
});

test('duplicates: exactly the true copies, proved by hash or by a fingerprint that is the whole file; nothing deleted', async () => {
  const r = await scan({ kind: 'duplicates', path: dupes.root });
  assert.is(r.state, 'done');
  assert.is(r.stop, null);
  assert.is(r.note, null);
  const d = r.duplicates!;
  assert.is(d.phase, 'done');
  assert.is(d.unconfirmed, 0);
  // The hard link is the same file as copy-1 (one inode): whichever name the walk met first stands for both.
  const groups = d.groups.map((g) => g.paths.map((p) => p.replace('/hard-link.bin', '/copy-1.bin')).sort());
  assert.equal(groups, dupes.groups);
  assert.equal(d.groups.map((g) => g.proof), ['full-hash', 'fingerprint']);
  assert.is(d.groups[0].bytes, 100 * 1024);
  assert.is(d.groups[0].wasted, 2 * 100 * 1024);
  assert.is(d.wasted, 2 * 100 * 1024 + 2 * 10);
  // The link loop and the links were not followed: counted as skipped, the walk ended.
  assert.ok(r.counts.skipped >= 4, `skipped ${r.counts.skipped}`);
  for (const [path, data] of dupes.files) assert.ok(readFileSync(path).equals(data), `${path} is unchanged`);
});

test('perch\'s GET /api/dupes answers the same groups when the scan ends', async () => {
  const r = await call<Scan>('GET', `/api/dupes?path=${encodeURIComponent(dupes.root)}&budget=30`);
  assert.is(r.status, 200);
  assert.is(r.body.duplicates!.groups.length, 2);
});

test('duplicates past the budget: the early stop is reported with what is left unconfirmed', async () => {
  // Two sparse files of 64 GiB, equal in size and start: hashing them whole cannot end within 300 ms.
  const big = join(work.path, 'tree/sparse');
  mkdirSync(big, { recursive: true });
  for (const name of ['one', 'two']) { writeFileSync(join(big, name), ''); truncateSync(join(big, name), 64 * 1024 ** 3); }
  const r = await scan({ kind: 'duplicates', path: big, budget_ms: 300 });
  assert.is(r.state, 'done');
  assert.is(r.stop, 'budget');
  assert.match(r.note!, /budget ran out/);
  assert.is(r.duplicates!.groups.length, 0);
  assert.is(r.duplicates!.unconfirmed, 2);
  assert.ok(r.elapsed_ms < scaledTimeout(10_000), `${r.elapsed_ms} ms`);
});

test('big old files: exactly the aged ones above the size, largest first, with the clock said', async () => {
  const aged = makeAgedFiles(join(root, 'aged'), 400, 2 * 1024 * 1024);
  const r = await scan({ kind: 'old-files', path: join(root, 'aged'), days: 365, min_size: 1024 * 1024 });
  assert.is(r.stop, null);
  const o = r.old_files!;
  assert.equal(o.rows.map((x) => x.path).sort(), aged.old);
  assert.is(o.rows[0].bytes, 2 * 1024 * 1024 + 1, 'largest first');
  assert.is(o.matched, 2);
  assert.ok(['atime', 'mtime'].includes(o.clock));
  assert.match(o.clock_note, o.clock === 'atime' ? /access times/ : /modification time/);
  for (const p of [...aged.old, ...aged.fresh, aged.smallOld]) assert.ok(readFileSync(p).length > 0, `${p} still there`);
});

test('folder sizes: the same bytes as du, the drill-down from the kept tree, links never followed', async () => {
  const r = await scan({ kind: 'sizes', path: dupes.root });
  assert.is(r.stop, null);
  const du = (p: string) => Number(execFileSync('du', ['-s', '-x', '-B1', p], { encoding: 'utf8' }).split('\t')[0]);
  assert.is(r.folder!.bytes, du(dupes.root));
  assert.ok(r.folder!.complete);
  const b = r.folder!.children.find((c) => c.name === 'b')!;
  assert.is(b.bytes, du(join(dupes.root, 'b')));
  const drill = await call<Scan['folder']>('GET', `/api/storage/scans/${r.id}/folder?path=${encodeURIComponent(b.path)}`);
  assert.is(drill.status, 200);
  assert.equal(drill.body!.children.map((c) => c.name), ['deep']);
  assert.is(drill.body!.bytes, b.bytes);
  const outside = await call<{ error: { code: string } }>('GET', `/api/storage/scans/${r.id}/folder?path=%2Fetc`);
  assert.is(outside.status, 400);
  // perch's route answers the same.
  const perch = await call<Scan>('GET', `/api/du?path=${encodeURIComponent(dupes.root)}`);
  assert.is(perch.body.folder!.bytes, r.folder!.bytes);
});

test('a folder of 200,000 files: counted exactly, then stopped early at a short budget, and cancelled; the server stays responsive', async () => {
  const whole = await responsiveWhile(scan({ kind: 'sizes', path: many, budget: 120 }));
  assert.is(whole.result.stop, null, whole.result.note ?? '');
  assert.is(whole.result.counts.files, 200_000);
  assert.ok(whole.checks >= 2, `${whole.checks} health checks ran during the scan`);
  assert.ok(whole.worstMs < scaledTimeout(1000), `the slowest health check took ${whole.worstMs} ms`);
  // The partial answer at a budget too short for the folder: a lower bound, said so.
  const short = await scan({ kind: 'sizes', path: many, budget_ms: 100 });
  assert.is(short.stop, 'budget');
  assert.ok(short.counts.files < 200_000, `${short.counts.files} files counted in 100 ms`);
  // Cancel: a running search ends at once with what it found.
  const started = await call<Scan>('POST', '/api/storage/scans', { kind: 'search', path: many, q: '9', budget: 60, limit: 5000 });
  const cancelled = await call<Scan>('DELETE', `/api/storage/scans/${started.body.id}`);
  assert.is(cancelled.status, 200);
  assert.ok(cancelled.body.stop === 'cancelled' || cancelled.body.stop === 'results', `stop ${cancelled.body.stop}`);
  // The search's own cap.
  const capped = await call<Scan>('GET', `/api/search?q=0&path=${encodeURIComponent(many)}&limit=100`);
  assert.is(capped.body.stop, 'results');
  assert.is(capped.body.hits!.length, 100);
});

test('a regular expression that backtracks catastrophically is ended at its budget; the server answers meanwhile', async () => {
  const evil = join(root, 'evil');
  mkdirSync(evil, { recursive: true });
  writeFileSync(join(evil, 'aaa-match.txt'), '');
  writeFileSync(join(evil, `${'a'.repeat(40)}!`), '');
  const q = encodeURIComponent('^(a+)+$|match');
  const run = fetch(`${base}/api/search?q=${q}&regex=1&path=${encodeURIComponent(evil)}&budget=1`, { headers: auth }).then(async (r) => ({ status: r.status, body: await r.json() as Scan }));
  const { result, worstMs } = await responsiveWhile(run);
  assert.is(result.status, 200);
  assert.is(result.body.stop, 'deadline');
  assert.match(result.body.note!, /pattern that backtracks/);
  assert.ok(worstMs < scaledTimeout(1000), `the slowest health check took ${worstMs} ms`);
  // An invalid pattern is refused before any worker starts.
  const bad = await call<{ error: { code: string; message: string } }>('GET', `/api/search?q=${encodeURIComponent('(unclosed')}&regex=1`);
  assert.is(bad.status, 400);
  assert.is(bad.body.error.code, 'VIGIL_ERR_FILES_PATTERN');
});

test('bad paths: outside the scan roots, through .., and a file where a folder is needed', async () => {
  for (const path of ['/etc', `${root}/../..`, join(dupes.root, 'unique.txt'), 'relative/path', join(root, 'missing')]) {
    const r = await call<{ error: { code: string; message: string } }>('POST', '/api/storage/scans', { kind: 'sizes', path });
    assert.is(r.status, 400, `${path}: ${JSON.stringify(r.body)}`);
    assert.is(r.body.error.code, 'VIGIL_ERR_FILES_PATH');
  }
  const unknown = await call<{ error: { code: string } }>('GET', '/api/storage/scans/nope');
  assert.is(unknown.status, 404);
});

test.run();
