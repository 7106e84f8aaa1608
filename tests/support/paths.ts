import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'vigil') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('tests: cannot find the vigil package root');
    dir = up;
  }
}

/** The repository root (tests run from dist/tests, so paths are resolved from here, not from cwd). */
export const repoRoot = findRoot(dirname(fileURLToPath(import.meta.url)));
/** The built CLI entry point. */
export const vigilBin = join(repoRoot, 'bin/vigil.js');
/** A path under the repository root. */
export const fromRoot = (...parts: string[]): string => join(repoRoot, ...parts);
/** A fixture under tests/fixtures (fixtures are not transpiled; they stay in the source tree). */
export const fixture = (...parts: string[]): string => join(repoRoot, 'tests/fixtures', ...parts);
