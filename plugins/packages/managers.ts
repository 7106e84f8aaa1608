import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { PackageManager } from '@vigil/plugin-sdk';

/** Native managers in the order one is picked (a machine with several: the first). */
const NATIVE: { manager: PackageManager; programs: string[] }[] = [
  { manager: 'apt', programs: ['dpkg-query', 'apt-get'] },
  { manager: 'dnf', programs: ['rpm', 'dnf'] },
  { manager: 'pacman', programs: ['pacman'] },
  { manager: 'zypper', programs: ['rpm', 'zypper'] },
];
const EXTRA: { manager: PackageManager; programs: string[] }[] = [
  { manager: 'snap', programs: ['snap'] },
  { manager: 'flatpak', programs: ['flatpak'] },
];

async function onPath(program: string, path: string): Promise<boolean> {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    try { await access(join(dir, program), constants.X_OK); return true; } catch { /* next */ }
  }
  return false;
}

export interface FoundManagers {
  /** The native manager, or null. */
  native: PackageManager | null;
  /** Every manager found, the native one first. */
  all: PackageManager[];
}

/** Which package managers this machine has, by their programs on PATH (no subprocess). */
export async function findManagers(path = process.env.PATH ?? ''): Promise<FoundManagers> {
  const has = async (programs: string[]) => (await Promise.all(programs.map((p) => onPath(p, path)))).every(Boolean);
  const native = (await Promise.all(NATIVE.map((m) => has(m.programs)))).indexOf(true);
  const extras = await Promise.all(EXTRA.map((m) => has(m.programs)));
  const nativeManager = native >= 0 ? NATIVE[native].manager : null;
  return { native: nativeManager, all: [...(nativeManager ? [nativeManager] : []), ...EXTRA.filter((_, i) => extras[i]).map((m) => m.manager)] };
}
