import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * SHA-256 of each file's content, by path, for telling a changed file from an unchanged one (a WASM module rebuilt
 * in place). A file that cannot be read is `unreadable`, which differs from any digest it has once it can.
 */
export function fileDigests(files: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of files) {
    try {
      out[file] = createHash('sha256').update(readFileSync(file)).digest('hex');
    } catch {
      out[file] = 'unreadable';
    }
  }
  return out;
}
