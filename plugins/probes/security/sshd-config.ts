import { join } from 'node:path';
import { listDir, readText } from '../proc/read-text.js';

/** The three settings of sshd that let a stranger in most easily, as sshd will apply them. */
export interface SshdSettings {
  permitRootLogin: string;
  passwordAuthentication: string;
  permitEmptyPasswords: string;
  /** The files read, in sshd's order (the main file, then each `Include` where it stands). */
  files: string[];
}

/** OpenSSH's defaults (sshd_config(5)) for a setting no file sets. */
const DEFAULTS = { permitrootlogin: 'prohibit-password', passwordauthentication: 'yes', permitemptypasswords: 'no' } as const;
type Key = keyof typeof DEFAULTS;
/** Includes nested deeper than this are not followed (sshd itself refuses a loop; a fixture must not hang us). */
const MAX_INCLUDE_DEPTH = 4;
const MAX_FILES = 64;

/**
 * sshd's effective values of PermitRootLogin, PasswordAuthentication and PermitEmptyPasswords for connections that
 * match no `Match` block: for each keyword the FIRST value met wins (sshd_config(5)), `Include` files are read where
 * the directive stands (globs in their directory, sorted), and reading stops at the first `Match`. Null when there is
 * no sshd_config (no SSH server to judge).
 */
export async function readSshdSettings(root: string, path = '/etc/ssh/sshd_config'): Promise<SshdSettings | null> {
  const main = await readText(root, path);
  if (main === undefined) return null;
  const found: Partial<Record<Key, string>> = {};
  const files: string[] = [];
  let stopped = false;
  const read = async (file: string, text: string, depth: number): Promise<void> => {
    files.push(file);
    for (const raw of text.split('\n')) {
      if (stopped) return;
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) continue;
      const [keyword, ...rest] = line.split(/\s+|=/).filter(Boolean);
      const key = keyword.toLowerCase();
      const value = rest.join(' ').replace(/^"|"$/g, '');
      if (key === 'match') { stopped = true; return; }
      if (key === 'include' && depth < MAX_INCLUDE_DEPTH) {
        for (const pattern of rest) {
          for (const next of await expandInclude(root, pattern)) {
            if (files.length >= MAX_FILES) return;
            const body = await readText(root, next);
            if (body !== undefined) await read(next, body, depth + 1);
            if (stopped) return;
          }
        }
        continue;
      }
      if (key in DEFAULTS && found[key as Key] === undefined) found[key as Key] = value.toLowerCase();
    }
  };
  await read(path, main, 0);
  return {
    permitRootLogin: found.permitrootlogin ?? DEFAULTS.permitrootlogin,
    passwordAuthentication: found.passwordauthentication ?? DEFAULTS.passwordauthentication,
    permitEmptyPasswords: found.permitemptypasswords ?? DEFAULTS.permitemptypasswords,
    files,
  };
}

/** An Include argument as files: relative to /etc/ssh, a `*` or `?` in the last part matched in its folder, sorted. */
async function expandInclude(root: string, pattern: string): Promise<string[]> {
  const full = pattern.startsWith('/') ? pattern : join('/etc/ssh', pattern);
  const slash = full.lastIndexOf('/');
  const dir = full.slice(0, slash) || '/';
  const name = full.slice(slash + 1);
  if (!/[*?[]/.test(name)) return [full];
  const re = new RegExp(`^${name.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return (await listDir(root, dir)).filter((f) => re.test(f)).map((f) => join(dir, f));
}
