import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { controlPlaneError, HttpErrors } from './errors.js';

const TOKEN_FILE = 'token.sha256';

/** SHA-256 of the token, hex. The only form in which the dashboard token is kept. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time check of a presented token against the stored hash: both sides are 32-byte digests. */
export function tokenMatches(presented: string, tokenHash: string): boolean {
  const expected = Buffer.from(tokenHash, 'hex');
  const actual = createHash('sha256').update(presented, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * Writes `data` to `path` only if it does not exist yet, atomically and with mode 0600: a temp file hard-linked into
 * place, so two instances starting on one data dir agree on a single value and never read a half-written file.
 * Returns false when another writer got there first.
 */
async function createExclusive(path: string, data: string | Buffer): Promise<boolean> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, data, { mode: 0o600, flag: 'wx' });
  try {
    await link(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function loadOrCreateTokenHash(dir: string): Promise<{ hash: string; generated?: string }> {
  const path = join(dir, TOKEN_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await readIfExists(path);
    if (existing) {
      const hash = existing.toString('utf8').trim();
      if (!/^[0-9a-f]{64}$/.test(hash)) {
        throw controlPlaneError(HttpErrors.TOKEN_FILE,
          `${path} does not hold a SHA-256 hex digest; delete it to generate a new dashboard token, or set control_plane.token`);
      }
      return { hash };
    }
    const token = randomBytes(32).toString('base64url');
    const hash = hashToken(token);
    if (await createExclusive(path, `${hash}\n`)) return { hash, generated: token };
  }
  throw controlPlaneError(HttpErrors.TOKEN_FILE, `cannot create ${path}`);
}

/**
 * Replaces the generated token of `dataDir` with a new one and returns it (`vigil token reset`): the old hash is
 * removed first, so the next start of any instance on this data directory takes the new one.
 */
export async function resetDashboardToken(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'control-plane');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await unlink(join(dir, TOKEN_FILE)).catch((err: NodeJS.ErrnoException) => { if (err.code !== 'ENOENT') throw err; });
  const { generated } = await loadOrCreateTokenHash(dir);
  if (generated === undefined) throw controlPlaneError(HttpErrors.TOKEN_FILE, `another process made a token in ${dir} at the same moment; run the command again`);
  return generated;
}

/**
 * The dashboard token's hash. A configured token is hashed and never written anywhere. Without one, the hash in
 * `<dataDir>/control-plane/token.sha256` is used, or a new random token is made, only its hash persisted (0600), and
 * the token returned once as `generated` so the runtime can print the dashboard link. Sessions are recorded on the
 * server (dashboard-sessions.ts), so no signing secret is kept.
 */
export async function loadOrCreateDashboardToken(options: { configured?: string; dataDir: string }): Promise<{ hash: string; generated?: string }> {
  if (options.configured !== undefined) {
    if (options.configured.trim() === '') {
      throw controlPlaneError(HttpErrors.TOKEN_EMPTY,
        'control_plane.token is empty; set a token, or remove the key to have one generated on first run');
    }
    return { hash: hashToken(options.configured) };
  }
  const dir = join(options.dataDir, 'control-plane');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return loadOrCreateTokenHash(dir);
}
