import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** How long the parsed /etc/passwd is used before it is read again. */
const TTL_MS = 60_000;

/** uid → user name from `root`/etc/passwd, cached a minute; a uid it lacks (LDAP, a container's) shows as the number. */
export function userNames(root: string, now: () => number = Date.now): () => Promise<(uid: number) => string> {
  let cached: { at: number; names: Map<number, string> } | undefined;
  return async () => {
    if (!cached || now() - cached.at > TTL_MS) {
      const text = await readFile(join(root, 'etc/passwd'), 'utf8').catch(() => '');
      const names = new Map<number, string>();
      for (const line of text.split('\n')) {
        const f = line.split(':');
        if (f.length >= 3 && /^\d+$/.test(f[2]) && !names.has(Number(f[2]))) names.set(Number(f[2]), f[0]);
      }
      cached = { at: now(), names };
    }
    const names = cached.names;
    return (uid) => names.get(uid) ?? String(uid);
  };
}
