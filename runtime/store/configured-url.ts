import { resolve } from 'node:path';

/**
 * The storage URL a config names, as `vigil run` and the commands that touch the store both read it: `storage.url`,
 * else SQLite at `<data_dir>/vigil.db`; a relative SQLite path (and `data_dir`) resolved against `cwd`.
 */
export function configuredStoreUrl(core: { data_dir: string; storage: { url?: string } }, cwd = process.cwd()): string {
  const configured = core.storage.url ?? `sqlite:${resolve(cwd, core.data_dir, 'vigil.db')}`;
  return configured.startsWith('sqlite:') && !configured.startsWith('sqlite::') ? `sqlite:${resolve(cwd, configured.slice(7))}` : configured;
}
