// Real trees for the files plugin's suites: a tree with known duplicates and aged files, and a flat folder of many
// empty files made by `touch` through xargs (200,000 in about a second).
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KB = 1024;

/** `n` bytes whose content depends on `seed` (so two seeds differ from the first byte on). */
export function bytesOf(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return b;
}

export interface DuplicateTree {
  root: string;
  /** The groups the finder must report, each sorted, largest waste first. */
  groups: string[][];
  /** Every file made, with its content, to check nothing was deleted or changed. */
  files: Map<string, Buffer>;
}

/**
 * Known answers: true duplicates of 100 KB (three copies, one with a newline in its name, plus a hard link and a
 * symbolic link to one of them that are not copies), a pair of equal size whose first bytes differ, a pair whose
 * first 64 KB are equal but whose tails differ, three equal 10-byte files (proved by the fingerprint alone), and a
 * symbolic link loop.
 */
export function makeDuplicateTree(root: string): DuplicateTree {
  const files = new Map<string, Buffer>();
  const put = (rel: string, data: Buffer) => {
    const path = join(root, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, data);
    files.set(path, data);
    return path;
  };
  const same = bytesOf(100 * KB, 1);
  const a = [put('a/copy-1.bin', same), put('b/deep/er/copy-2.bin', same), put('c/copy\nwith newline.bin', same)];
  put('size-only/one.bin', bytesOf(100 * KB, 2));
  put('size-only/two.bin', bytesOf(100 * KB, 3));
  const head = bytesOf(100 * KB, 4);
  const tail = Buffer.from(head);
  tail[tail.length - 1] ^= 0xff;
  put('head-only/one.bin', head);
  put('head-only/two.bin', tail);
  const small = Buffer.from('tiny file\n');
  const s = [put('small/1.txt', small), put('small/2.txt', small), put('small/3.txt', small)];
  put('unique.txt', Buffer.from('nothing like it'));
  writeFileSync(join(root, 'empty-1'), '');
  writeFileSync(join(root, 'empty-2'), '');
  linkSync(a[0], join(root, 'a/hard-link.bin'));
  symlinkSync(a[0], join(root, 'link-to-copy.bin'));
  mkdirSync(join(root, 'loop'));
  symlinkSync('..', join(root, 'loop/up'));
  symlinkSync(join(root, 'loop/b'), join(root, 'loop/a'));
  symlinkSync(join(root, 'loop/a'), join(root, 'loop/b'));
  return { root, groups: [a.slice().sort(), s.slice().sort()], files };
}

/** Files aged with utimes: `old` (both times `days` ago) and `fresh` ones, of `bytes` each. */
export function makeAgedFiles(root: string, days: number, bytes: number): { old: string[]; fresh: string[]; smallOld: string } {
  mkdirSync(root, { recursive: true });
  const when = (Date.now() - days * 86_400_000) / 1000;
  const old = ['archive.iso', 'sub/old-video.mkv'].map((rel, i) => {
    const path = join(root, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, bytesOf(bytes + i, 9));
    utimesSync(path, when, when);
    return path;
  });
  const fresh = ['new.iso'].map((rel) => {
    const path = join(root, rel);
    writeFileSync(path, bytesOf(bytes, 10));
    return path;
  });
  const smallOld = join(root, 'small-old.txt');
  writeFileSync(smallOld, 'old but small');
  utimesSync(smallOld, when, when);
  return { old: old.sort(), fresh, smallOld };
}

/** A folder of `n` empty files named 000000..n-1, made with touch. */
export function makeManyFiles(dir: string, n: number): void {
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('sh', ['-c', `seq -w 0 ${n - 1} | xargs touch`], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`touch failed: ${r.stderr}`);
}
