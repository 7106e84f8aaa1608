import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InstallMethod } from '@vigil/plugin-sdk';

/** The package root: two levels above this file in dist/runtime/, one above it in runtime/. */
function packageRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, '..', '..'), join(here, '..')]) {
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  return join(here, '..', '..');
}

/** Where `npm install -g` puts packages: `<prefix>/lib/node_modules`, or `<prefix>/node_modules` on Windows. */
function globalModuleDirs(env: NodeJS.ProcessEnv, execPath: string): string[] {
  const prefixes = [env.npm_config_prefix, env.PREFIX, dirname(dirname(execPath)), dirname(execPath)].filter((p): p is string => Boolean(p));
  return prefixes.flatMap((p) => [join(p, 'lib', 'node_modules') + sep, join(p, 'node_modules') + sep]);
}

/**
 * How the copy of Vigil at `root` was installed, judged from where it lies: `.git` beside package.json is a clone
 * (a worktree's `.git` is a file, so any entry counts); npx runs packages from npm's `_npx` cache; a global install
 * lies in the global prefix's node_modules; any other node_modules is a project's dependency.
 */
export function installMethod(root = packageRoot(), env: NodeJS.ProcessEnv = process.env, execPath = process.execPath): InstallMethod {
  if (existsSync(join(root, '.git'))) return 'git checkout';
  const path = root.endsWith(sep) ? root : root + sep;
  if (path.includes(`${sep}_npx${sep}`)) return 'npx';
  if (globalModuleDirs(env, execPath).some((dir) => path.startsWith(dir))) return 'global npm package';
  if (path.includes(`${sep}node_modules${sep}`)) return 'npm package';
  return 'source tree';
}
