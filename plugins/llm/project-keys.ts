import { createHash, randomBytes } from 'node:crypto';

/** Project keys are `vk_` and 43 characters of base64url: 256 random bits, so a key cannot be guessed. */
const KEY_PREFIX = 'vk_';

/** A new project key. It is shown once; only `hashKey(key)` is kept. */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** The hex SHA-256 of a key: what the store keeps and looks keys up by. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * What people see of a key to tell keys apart (`vk_Ab3d…`): the first 7 characters of a key made here, which carry
 * 24 of its 256 bits; for a key from the config file's `key_sha256` the hash's first 8 digits instead.
 */
export function keyHint(key: string): string {
  return `${key.slice(0, 7)}…`;
}

export function hashHint(keyHash: string): string {
  return `sha256:${keyHash.slice(0, 8)}…`;
}
