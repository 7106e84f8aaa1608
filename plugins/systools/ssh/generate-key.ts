import { mkdir, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { httpError } from '@vigil/plugin-sdk';
import { SystoolsErrors } from '../errors.js';
import { runTool, ToolMissing } from '../run-tool.js';

/** A plain file name in ~/.ssh: no folder, no leading dot or dash (never read as an option), not a `.pub`. */
export const KEY_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const KEYGEN_TIMEOUT_MS = 30_000;

export interface NewKey {
  name: string;
  comment: string;
  /** '' for none. Passed to ssh-keygen only; never logged, stored or answered. */
  passphrase: string;
}

const exists = (path: string) => lstat(path).then(() => true, () => false);

/**
 * An ed25519 key pair in `<home>/.ssh/<name>` by the real ssh-keygen, as an argument list. The passphrase travels
 * in that list only (ssh-keygen reads it nowhere else without a terminal); errors never repeat the list.
 */
export async function generateKey(home: string, key: NewKey): Promise<string> {
  if (!KEY_NAME.test(key.name) || key.name.endsWith('.pub') || ['authorized_keys', 'known_hosts', 'config'].includes(key.name)) {
    throw httpError(SystoolsErrors.SSH_KEY_NAME, `"${key.name.slice(0, 80)}" is not a key name: letters, digits and _ . - (not starting with . or -, at most 64, not ending in .pub)`);
  }
  if (/[\r\n\0]/.test(key.comment) || /[\0\r\n]/.test(key.passphrase)) throw httpError(SystoolsErrors.SSH_KEY_NAME, 'the comment and the passphrase are one line each, without NUL');
  const folder = join(home, '.ssh');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, key.name);
  if (await exists(file) || await exists(`${file}.pub`)) throw httpError(SystoolsErrors.SSH_KEY_EXISTS, `${key.name} already exists in ${folder}; a new key never overwrites one`);
  let r;
  try {
    r = await runTool('ssh-keygen', ['-q', '-t', 'ed25519', '-N', key.passphrase, '-f', file, '-C', key.comment], { timeoutMs: KEYGEN_TIMEOUT_MS, maxBytes: 16 * 1024 });
  } catch (err) {
    if (err instanceof ToolMissing) throw httpError(SystoolsErrors.SSH_KEYGEN, 'ssh-keygen is not installed here (OpenSSH\'s client tools)');
    throw err;
  }
  if (r.code !== 0) {
    const said = r.timedOut ? `no answer within ${KEYGEN_TIMEOUT_MS / 1000} s` : r.stderr.trim().slice(0, 300) || `exit ${r.code}`;
    throw httpError(SystoolsErrors.SSH_KEYGEN, `ssh-keygen failed: ${key.passphrase ? said.split(key.passphrase).join('…') : said}`);
  }
  return file;
}
