import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readText } from './read-text.js';

/** A kernel tunable as `sysctl -a` prints it: `vm.swappiness = 60`. */
export interface KernelTunable { key: string; value: string }

/** Files read at once while walking /proc/sys (about 1,000 on a desktop). */
const READ_CONCURRENCY = 32;
/** A value longer than this (a few tables) is cut, so one answer stays small. */
const MAX_VALUE_CHARS = 512;

async function walk(root: string, dir: string, out: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) await walk(root, path, out);
    else out.push(path);
  }
}

/**
 * The tunables under /proc/sys, read-only, sorted by key, those whose key or value contains `query` (ignoring case)
 * when one is given. Write-only entries (vm.compact_memory) and those the process may not read are left out.
 */
export async function readKernelTunables(root = '/', query?: string): Promise<KernelTunable[]> {
  const files: string[] = [];
  await walk(root, 'proc/sys', files);
  const q = query?.toLowerCase();
  const out: KernelTunable[] = [];
  for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
    const batch = files.slice(i, i + READ_CONCURRENCY);
    const values = await Promise.all(batch.map((f) => readText(root, f)));
    batch.forEach((f, j) => {
      const text = values[j];
      if (text === undefined) return;
      const key = f.slice('proc/sys/'.length).replaceAll('/', '.');
      const value = text.trim().replace(/\s+/g, ' ').slice(0, MAX_VALUE_CHARS);
      if (!q || key.toLowerCase().includes(q) || value.toLowerCase().includes(q)) out.push({ key, value });
    });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
