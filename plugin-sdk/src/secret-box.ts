import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PermanentError, VigilError } from './errors.js';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 'v1.';

/** Who keeps the secrets, for the errors: the plugin's name, its error code, and what one secret is called. */
export interface SecretBoxOwner {
  /** `channels`: starts every message. */
  plugin: string;
  /** The plugin's catalogued code for a key that is missing, unreadable, or does not open a value. */
  code: string;
  /** What a sealed value is, and what its `aad` names: `the secrets of channel`, `the token of machine`. */
  valueOf: string;
}

/**
 * AES-256-GCM over secrets a plugin stores for the user (channel URLs and passwords, other machines' tokens), under a
 * key file of 32 random bytes (mode 0600) in the plugin's directory. Each sealed value is bound to what it belongs to
 * (`aad`: a channel id, a machine's name), so a value copied onto another row does not open.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer, private readonly owner: SecretBoxOwner) {}

  /**
   * Reads the key file, or creates it when absent. Creation writes a temporary file and links it into place, so two
   * processes starting at once end with one key, and neither reads a half-written file.
   */
  static async open(path: string, owner: SecretBoxOwner): Promise<SecretBox> {
    const keyError = keyErrorOf(owner);
    let key = await readKey(path, keyError);
    if (!key) {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await writeFile(temp, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
      try {
        await link(temp, path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw keyError(`cannot create the secrets key ${path}: ${(err as Error).message}`, err);
      } finally {
        await unlink(temp).catch(() => {});
      }
      key = await readKey(path, keyError);
      if (!key) throw keyError(`the secrets key ${path} vanished after it was created`);
    }
    return new SecretBox(key, owner);
  }

  /**
   * Opens the key on first use and keeps it: a plugin that never stores a secret never creates a key file. A failed
   * open (a key file readable by others) is tried again on the next use, once the file is fixed.
   */
  static opener(path: string, owner: SecretBoxOwner): () => Promise<SecretBox> {
    let box: Promise<SecretBox> | undefined;
    return () => {
      box ??= SecretBox.open(path, owner);
      box.catch(() => { box = undefined; });
      return box;
    };
  }

  seal(plaintext: string, aad: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /**
   * Throws the owner's code when the value was sealed under another key or for another `aad`, or altered. Permanent:
   * nothing that needs the value can succeed until the key is restored or the secret entered again.
   */
  unseal(sealed: string, aad: string): string {
    const keyError = keyErrorOf(this.owner);
    if (!sealed.startsWith(PREFIX)) throw keyError(`${this.owner.valueOf} "${aad}" cannot be opened: it is stored in a format this version does not read`);
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw keyError(`${this.owner.valueOf} "${aad}" cannot be opened: the stored value is cut short`);
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch (err) {
      throw new PermanentError(`${this.owner.plugin}: ${this.owner.valueOf} "${aad}" cannot be opened with this key (another data directory's key, or an altered row)`,
        { code: this.owner.code, cause: err });
    }
  }
}

type KeyError = (message: string, cause?: unknown) => VigilError;

const keyErrorOf = (owner: SecretBoxOwner): KeyError => (message, cause) => new VigilError(owner.code, `${owner.plugin}: ${message}`, { cause });

/** The key, or undefined when the file does not exist. A key readable by others, or of the wrong size, is refused. */
async function readKey(path: string, keyError: KeyError): Promise<Buffer | undefined> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw keyError(`cannot read the secrets key ${path}: ${(err as Error).message}`, err);
  }
  if ((mode & 0o077) !== 0) {
    throw keyError(`the secrets key ${path} is readable by others (mode ${(mode & 0o777).toString(8)}); chmod 600 it`);
  }
  const key = await readFile(path);
  if (key.length !== KEY_BYTES) throw keyError(`the secrets key ${path} holds ${key.length} bytes, not ${KEY_BYTES}`);
  return key;
}
