/**
 * Checks a release made by `npm run release` (scripts/release.mjs): the Ed25519 signature of SHA256SUMS against a
 * public key, then the sha256 of every file SHA256SUMS lists (the archive and its SBOM, found beside SHA256SUMS).
 * Every check runs, so one report names everything that failed. `vigil verify` (app/release/verify-command.ts) and
 * the self-updater (plugins/selfupdate) share it, which is why it lives in the SDK: a plugin cannot import app/.
 */
import { createHash, createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface VerifyInput {
  archive: string;
  sums: string;
  sig: string;
  key: string;
  /**
   * Whether the other files SHA256SUMS lists (the SBOM) are checked too; default true, as `vigil verify` does. The
   * self-updater checks only the one file it applies (the npm archive, or the git tag's source archive).
   */
  others?: boolean;
}

export interface VerifyReport {
  ok: boolean;
  /** One line per check, `ok` or what failed, in the order they ran. */
  checks: { ok: boolean; what: string }[];
}

const SUM_LINE = /^([0-9a-f]{64}) [ *](.+)$/;

async function read(path: string): Promise<Buffer | Error> {
  try {
    return await readFile(path);
  } catch (err) {
    return err as Error;
  }
}

function reason(err: Error): string {
  return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : err.message;
}

function publicKey(pem: Buffer): KeyObject | string {
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === 'ed25519' ? key : `is a ${key.asymmetricKeyType} key, not Ed25519`;
  } catch (err) {
    return `is not a public key in PEM: ${(err as Error).message}`;
  }
}

/** Verifies a release's files against its signed SHA256SUMS; `ok` only when every check passed. */
export async function verifyRelease(input: VerifyInput): Promise<VerifyReport> {
  const checks: VerifyReport['checks'] = [];
  const failed = (what: string): void => { checks.push({ ok: false, what }); };
  const passed = (what: string): void => { checks.push({ ok: true, what }); };

  const [sums, sig, keyPem] = await Promise.all([read(input.sums), read(input.sig), read(input.key)]);
  if (sums instanceof Error) failed(`SHA256SUMS ${input.sums}: ${reason(sums)}`);
  if (sig instanceof Error) failed(`signature ${input.sig}: ${reason(sig)}`);
  if (keyPem instanceof Error) failed(`public key ${input.key}: ${reason(keyPem)}`);
  const key = keyPem instanceof Error ? undefined : publicKey(keyPem);
  if (typeof key === 'string') failed(`public key ${input.key} ${key}`);

  if (!(sums instanceof Error) && !(sig instanceof Error) && key && typeof key !== 'string') {
    // Ed25519 signs the message itself (no digest): `null` as the algorithm, as scripts/release.mjs signs it.
    if (verifySignature(null, sums, key, sig)) passed(`signature of SHA256SUMS by ${input.key}`);
    else failed(`signature ${input.sig} does not verify SHA256SUMS with the key ${input.key} (SHA256SUMS was changed, the signature was changed, or the key is not the one that signed)`);
  }
  if (sums instanceof Error) return { ok: false, checks };

  const entries = new Map<string, string>();
  sums.toString('utf8').split('\n').forEach((line, i) => {
    if (line === '') return;
    const m = SUM_LINE.exec(line);
    if (!m) failed(`SHA256SUMS line ${i + 1} is not "<sha256>  <file>": ${JSON.stringify(line.slice(0, 120))}`);
    else entries.set(m[2], m[1]);
  });
  const archiveName = basename(input.archive);
  if (!entries.has(archiveName)) failed(`SHA256SUMS does not list the archive ${archiveName}`);
  // The archive is checked at the path given; the other files SHA256SUMS lists (the SBOM) beside SHA256SUMS.
  for (const [name, expected] of entries) {
    if (input.others === false && name !== archiveName) continue;
    const path = name === archiveName ? input.archive : join(dirname(input.sums), name);
    const data = await read(path);
    if (data instanceof Error) { failed(`${name}: ${reason(data)} (${path})`); continue; }
    const actual = createHash('sha256').update(data).digest('hex');
    if (actual === expected) passed(`sha256 of ${name}`);
    else failed(`sha256 of ${name} is ${actual}, SHA256SUMS says ${expected}`);
  }
  if (input.others !== false && entries.size === 1 && entries.has(archiveName)) failed('SHA256SUMS lists no SBOM beside the archive');
  return { ok: checks.every((c) => c.ok), checks };
}
