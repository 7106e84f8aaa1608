// A public key as OpenSSH writes it (`ssh-ed25519 AAAA… comment`), with its type, size and SHA256 fingerprint
// computed from the key blob exactly as `ssh-keygen -lf` prints them.
import { createHash } from 'node:crypto';
import { mpintBits, SshWireError, WireReader } from './ssh-wire.js';

export interface KeyFacts {
  /** The key type as in the file (`ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256`, …). */
  type: string;
  /** ssh-keygen's short name of the type: ED25519, RSA, ECDSA, DSA, ED25519-SK, ECDSA-SK. */
  label: string;
  bits: number;
  /** `SHA256:` and the unpadded base64 of the blob's SHA-256. */
  fingerprint: string;
}

const ECDSA_BITS: Record<string, number> = { nistp256: 256, nistp384: 384, nistp521: 521 };

/** Type, bits and fingerprint of a key blob; throws SshWireError for a blob that is not a key OpenSSH reads. */
export function keyFacts(blob: Buffer): KeyFacts {
  const r = new WireReader(blob);
  const type = r.string();
  const fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  switch (type) {
    case 'ssh-ed25519':
      if (r.bytes().length !== 32) throw new SshWireError('an ed25519 key is 32 bytes');
      return { type, label: 'ED25519', bits: 256, fingerprint };
    case 'sk-ssh-ed25519@openssh.com':
      r.bytes();
      return { type, label: 'ED25519-SK', bits: 256, fingerprint };
    case 'ssh-rsa': {
      r.bytes(); // e
      return { type, label: 'RSA', bits: mpintBits(r.bytes()), fingerprint };
    }
    case 'ssh-dss':
      return { type, label: 'DSA', bits: mpintBits(r.bytes()), fingerprint };
    case 'ecdsa-sha2-nistp256':
    case 'ecdsa-sha2-nistp384':
    case 'ecdsa-sha2-nistp521': {
      const curve = r.string();
      if (`ecdsa-sha2-${curve}` !== type) throw new SshWireError(`the key says ${type} but holds curve ${curve}`);
      return { type, label: 'ECDSA', bits: ECDSA_BITS[curve], fingerprint };
    }
    case 'sk-ecdsa-sha2-nistp256@openssh.com':
      return { type, label: 'ECDSA-SK', bits: 256, fingerprint };
    default:
      throw new SshWireError(`"${type.slice(0, 60)}" is not a key type this reads (certificates are listed without a fingerprint)`);
  }
}

export interface PublicKeyLine {
  type: string;
  blob: Buffer;
  comment: string;
}

const KEY_TYPE = /^(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com|[a-z0-9-]+-cert-v01@openssh\.com)$/;

/** Whether a word is a key type (so in authorized_keys it starts the key, and what is before it are options). */
export const isKeyType = (word: string): boolean => KEY_TYPE.test(word);

/** `type base64 [comment]`; null when the text is not one. */
export function parsePublicKeyLine(text: string): PublicKeyLine | null {
  const m = /^(\S+)[ \t]+([A-Za-z0-9+/]+={0,3})(?:[ \t]+(.*))?$/.exec(text.trim());
  if (!m || !isKeyType(m[1])) return null;
  return { type: m[1], blob: Buffer.from(m[2], 'base64'), comment: (m[3] ?? '').trim() };
}

/** What `ssh-keygen -lf` prints for a key: `256 SHA256:… comment (ED25519)`. */
export function keygenLine(facts: KeyFacts, comment: string): string {
  return `${facts.bits} ${facts.fingerprint} ${comment || 'no comment'} (${facts.label})`;
}
