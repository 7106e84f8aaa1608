import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './tmp.js';

/** A root folder holding the given files (path under the root → text), for readers that take a `root`. */
export function hostRoot(files: Record<string, string>): { path: string; cleanup(): void } {
  const tmp = tempDir('vigil-security-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tmp.path, path)), { recursive: true });
    writeFileSync(join(tmp.path, path), text);
  }
  return tmp;
}
