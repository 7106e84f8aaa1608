import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The text of `path` under `root` (`/` on a live machine, a fixture copy in tests), or undefined when the file does
 * not exist or cannot be read: kernels, containers and laptops expose different subsets of /proc and /sys.
 */
export async function readText(root: string, path: string): Promise<string | undefined> {
  try {
    return await readFile(join(root, path), 'utf8');
  } catch {
    return undefined;
  }
}

/** A sysfs attribute as a number (trailing newline trimmed), or undefined when absent or not numeric. */
export async function readNumber(root: string, path: string): Promise<number | undefined> {
  const text = (await readText(root, path))?.trim();
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** The entries of a directory under `root`, sorted, or none when it does not exist. */
export async function listDir(root: string, path: string): Promise<string[]> {
  try {
    return (await readdir(join(root, path))).sort();
  } catch {
    return [];
  }
}
