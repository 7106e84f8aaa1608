import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Local users' passwords, hashed with scrypt (RFC 7914) and a per-user 16-byte salt, stored as
 * `scrypt$N$r$p$<salt b64url>$<hash b64url>` so the cost can be raised later without breaking stored hashes.
 * node:crypto's scrypt runs on libuv's thread pool, never on the event loop.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Bytes: scrypt needs 128·N·r·p (32 MiB at the default cost); twice that leaves room. */
const MAX_MEM = 2 * 128 * COST.N * COST.r * COST.p;
/** Characters of a password we hash at most: longer ones are refused before any work. */
export const PASSWORD_MAX_CHARS = 1024;
export const PASSWORD_MIN_CHARS = 12;
const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

function derive(password: string, salt: Buffer, cost: ScryptOptions & { N: number; r: number; p: number }, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, bytes, { ...cost, maxmem: Math.max(MAX_MEM, 2 * 128 * cost.N * cost.r * cost.p) },
      (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** The stored form of `password`. */
export async function hashPassword(password: string): Promise<string> {
  if (password.length > PASSWORD_MAX_CHARS) throw new RangeError(`a password has at most ${PASSWORD_MAX_CHARS} characters`);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST, KEY_BYTES);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether `password` matches `stored` (compared in constant time); false for a stored value of another format. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = FORMAT.exec(stored);
  if (!m || password.length > PASSWORD_MAX_CHARS) return false;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // A stored value is ours, but a cost far above ours would hold a pool thread for seconds: refuse it.
  if (N > 2 ** 20 || r > 32 || p > 16 || (N & (N - 1)) !== 0) return false;
  const expected = Buffer.from(m[5], 'base64url');
  if (expected.length < 16) return false;
  const key = await derive(password, Buffer.from(m[4], 'base64url'), { N, r, p }, expected.length);
  return timingSafeEqual(key, expected);
}

/** A password for a new local user, shown once to the owner who made it: 128 random bits, in base64url. */
export const newPassword = (): string => randomBytes(16).toString('base64url');
