import { access, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_SCRIPTS, runnableName, type ProjectScript, type ScriptKind } from './project-script.js';

/** A package.json larger than this is not read (a real one is a few KiB). */
export const MAX_PACKAGE_JSON_BYTES = 1024 * 1024;

type Runner = Exclude<ScriptKind, 'make'>;

/** Lockfiles in the order they decide the runner: the one the project's own tool wrote. */
const LOCKFILES: [string, Runner][] = [['pnpm-lock.yaml', 'pnpm'], ['yarn.lock', 'yarn'], ['bun.lockb', 'bun'], ['bun.lock', 'bun'], ['package-lock.json', 'npm']];

const exists = (path: string) => access(path).then(() => true, () => false);

/** `packageManager: "pnpm@9.1.0"` (corepack's field) names the runner outright. */
function declaredRunner(pkg: Record<string, unknown>): Runner | null {
  const m = typeof pkg.packageManager === 'string' ? /^(npm|pnpm|yarn|bun)@/.exec(pkg.packageManager) : null;
  return m ? (m[1] as Runner) : null;
}

export interface PackageScripts {
  runner: Runner;
  /** Why the runner is this one: `packageManager`, a lockfile's name, or the default. */
  runner_reason: string;
  scripts: ProjectScript[];
  skipped: number;
}

/**
 * The `scripts` of a folder's package.json and the runner that runs them (`<runner> run <name>`). Null when there is
 * no package.json; throws with a sentence when it is unreadable, too large or not JSON.
 */
export async function readPackageScripts(folder: string): Promise<PackageScripts | null> {
  const file = join(folder, 'package.json');
  let size: number;
  try {
    const s = await stat(file);
    if (!s.isFile()) return null;
    size = s.size;
  } catch {
    return null;
  }
  if (size > MAX_PACKAGE_JSON_BYTES) throw new Error(`package.json is ${size} bytes, more than the ${MAX_PACKAGE_JSON_BYTES} read`);
  let pkg: unknown;
  try {
    pkg = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`package.json is not valid JSON: ${(err as Error).message}`);
  }
  if (!pkg || typeof pkg !== 'object' || Array.isArray(pkg)) throw new Error('package.json does not hold an object');
  const record = pkg as Record<string, unknown>;
  let runner = declaredRunner(record);
  let runner_reason = runner ? `packageManager ${String(record.packageManager)}` : 'no lockfile: npm';
  if (!runner) {
    for (const [lock, r] of LOCKFILES) {
      if (await exists(join(folder, lock))) { runner = r; runner_reason = lock; break; }
    }
  }
  runner ??= 'npm';
  const scripts: ProjectScript[] = [];
  let skipped = 0;
  const declared = record.scripts && typeof record.scripts === 'object' && !Array.isArray(record.scripts) ? record.scripts as Record<string, unknown> : {};
  for (const [name, body] of Object.entries(declared)) {
    if (typeof body !== 'string' || !runnableName(name) || scripts.length >= MAX_SCRIPTS) { skipped++; continue; }
    scripts.push({ kind: runner, name, argv: [runner, 'run', name], detail: body.slice(0, 2000) });
  }
  return { runner, runner_reason, scripts, skipped };
}
