import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginDefinition } from '@vigil/plugin-sdk';
import { PluginError, PluginErrors } from './errors.js';

/** The file a package directory exports as its entry point (ESM `exports['.']`, else `main`, else index.js). */
function packageEntry(dir: string): string | undefined {
  const pkgFile = join(dir, 'package.json');
  if (existsSync(pkgFile)) {
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports?: unknown; main?: string };
    let exp = pkg.exports;
    if (exp && typeof exp === 'object' && '.' in (exp as object)) exp = (exp as Record<string, unknown>)['.'];
    for (let i = 0; i < 3 && exp && typeof exp === 'object'; i++) {
      const cond = exp as Record<string, unknown>;
      exp = cond.import ?? cond.node ?? cond.default;
    }
    if (typeof exp === 'string') return join(dir, exp);
    if (pkg.main) return join(dir, pkg.main);
  }
  for (const name of ['index.js', 'index.mjs']) if (existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

function fileOrPackage(path: string): string | undefined {
  if (!existsSync(path)) {
    for (const ext of ['.js', '.mjs']) if (existsSync(path + ext)) return path + ext;
    return undefined;
  }
  return statSync(path).isDirectory() ? packageEntry(path) : path;
}

/** Looks a package name up in node_modules folders above each base directory. */
function findPackage(name: string, bases: readonly string[]): string | undefined {
  for (const base of bases) {
    let dir = resolve(base);
    for (;;) {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(candidate)) return packageEntry(candidate);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return undefined;
}

/**
 * Loads a third-party plugin named by `use`: a path (relative to the config file's directory) or an npm package
 * name (looked up from the config directory, then the working directory).
 */
export async function loadThirdPartyPlugin(use: string, configDir: string, where: string): Promise<PluginDefinition> {
  const isPath = use.startsWith('.') || isAbsolute(use);
  const entry = isPath ? fileOrPackage(resolve(configDir, use)) : findPackage(use, [configDir, process.cwd()]);
  if (!entry) {
    throw new PluginError(PluginErrors.RESOLVE, use,
      `${where}: cannot find plugin "${use}"${isPath ? ` (looked for ${resolve(configDir, use)})` : ' in node_modules; install it with npm install'}`);
  }
  let mod: { default?: unknown };
  try {
    mod = await import(pathToFileURL(entry).href);
  } catch (err) {
    throw new PluginError(PluginErrors.RESOLVE, use, `${where}: plugin "${use}" failed to load: ${(err as Error).message}`, err);
  }
  const def = mod.default as PluginDefinition | undefined;
  if (!def || typeof def !== 'object' || typeof def.name !== 'string' || typeof def.setup !== 'function') {
    throw new PluginError(PluginErrors.INVALID, use,
      `${where}: "${use}" is not a Vigil plugin: its default export must come from definePlugin() in @vigil/plugin-sdk`);
  }
  return def;
}
