import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (two levels above dist/runtime and runtime/). */
export const VERSION: string = (() => {
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'vigil' && pkg.version) return pkg.version;
    } catch { /* try the next */ }
  }
  return '0.0.0';
})();
