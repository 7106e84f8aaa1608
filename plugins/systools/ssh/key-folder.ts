// The keys in ~/.ssh: public key files, and private keys known by their header only. Bounded: the first 200 entries
// of the folder, 64 KiB of each file; symlinks and other non-files are not followed.
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAuthorizedKeysSliced, type AuthorizedLine } from './authorized-keys.js';
import { keyFacts, keygenLine, parsePublicKeyLine } from './public-key.js';
import { privateKeyFacts } from './private-key.js';
import { SshWireError } from './ssh-wire.js';

export const MAX_FOLDER_ENTRIES = 200;
export const MAX_KEY_FILE_BYTES = 64 * 1024;
export const MAX_AUTHORIZED_BYTES = 1024 * 1024;

export interface SshKey {
  /** The key's name: its private file's name, or the public file's without `.pub`. */
  name: string;
  public_file: string | null;
  private_file: string | null;
  type: string | null;
  label: string | null;
  bits: number | null;
  fingerprint: string | null;
  comment: string;
  /** What `ssh-keygen -lf` prints for it. */
  keygen_line: string | null;
  /** The private key is protected by a passphrase; null without a private file or when its format does not say. */
  encrypted: boolean | null;
  /** Private file permissions readable by others (ssh refuses such a key). */
  loose_permissions: boolean;
  error: string | null;
}

export interface SshFolder {
  folder: string;
  exists: boolean;
  keys: SshKey[];
  authorized_keys: { present: boolean; lines: AuthorizedLine[]; truncated: boolean };
  /** The folder had more entries than were looked at. */
  truncated: boolean;
}

/** The first `max` bytes of a regular file (not a symlink); null when there is none. */
async function readHead(path: string, max: number): Promise<{ text: string; mode: number; truncated: boolean } | null> {
  const st = await lstat(path).catch(() => null);
  if (!st?.isFile()) return null;
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(st.size, max));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return { text: buf.subarray(0, bytesRead).toString('utf8'), mode: st.mode, truncated: st.size > max };
  } finally {
    await fh.close();
  }
}

function emptyKey(name: string): SshKey {
  return { name, public_file: null, private_file: null, type: null, label: null, bits: null, fingerprint: null, comment: '', keygen_line: null, encrypted: null, loose_permissions: false, error: null };
}

export async function readSshFolder(home: string): Promise<SshFolder> {
  const folder = join(home, '.ssh');
  let names: string[];
  try {
    names = (await readdir(folder)).sort();
  } catch {
    return { folder, exists: false, keys: [], authorized_keys: { present: false, lines: [], truncated: false }, truncated: false };
  }
  const truncated = names.length > MAX_FOLDER_ENTRIES;
  const keys = new Map<string, SshKey>();
  const keyOf = (name: string) => keys.get(name) ?? keys.set(name, emptyKey(name)).get(name)!;
  for (const file of names.slice(0, MAX_FOLDER_ENTRIES)) {
    if (file === 'authorized_keys' || file === 'known_hosts' || file === 'config') continue;
    const head = await readHead(join(folder, file), MAX_KEY_FILE_BYTES);
    if (!head) continue;
    if (file.endsWith('.pub')) {
      const parsed = parsePublicKeyLine(head.text.split('\n')[0] ?? '');
      if (!parsed) continue;
      const key = keyOf(file.slice(0, -4));
      key.public_file = file;
      key.comment = parsed.comment;
      try {
        const facts = keyFacts(parsed.blob);
        if (facts.type !== parsed.type) throw new SshWireError(`the file says ${parsed.type} but the key data is ${facts.type}`);
        Object.assign(key, { type: facts.type, label: facts.label, bits: facts.bits, fingerprint: facts.fingerprint, keygen_line: keygenLine(facts, parsed.comment) });
      } catch (err) {
        if (!(err instanceof SshWireError)) throw err;
        key.type = parsed.type;
        key.error = err.message;
      }
      continue;
    }
    const priv = privateKeyFacts(head.text);
    if (!priv) continue;
    const key = keyOf(file);
    key.private_file = file;
    key.encrypted = priv.encrypted;
    key.loose_permissions = (head.mode & 0o077) !== 0;
    // Without a .pub beside it, an OpenSSH key's public half comes from its clear header.
    if (priv.publicBlob && !key.fingerprint) {
      try {
        const facts = keyFacts(priv.publicBlob);
        Object.assign(key, { type: facts.type, label: facts.label, bits: facts.bits, fingerprint: facts.fingerprint });
      } catch (err) {
        if (!(err instanceof SshWireError)) throw err;
      }
    }
  }
  const authorized = await readHead(join(folder, 'authorized_keys'), MAX_AUTHORIZED_BYTES);
  return {
    folder, exists: true, truncated,
    keys: [...keys.values()],
    authorized_keys: { present: authorized !== null, lines: authorized ? await parseAuthorizedKeysSliced(authorized.text) : [], truncated: authorized?.truncated ?? false },
  };
}
