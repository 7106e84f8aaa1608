// What can be known of a private key file without its secret: the format, whether a passphrase protects it, and for
// OpenSSH's format the public key, which that format stores in the clear before the (possibly encrypted) secret
// (PROTOCOL.key). Only the header is decoded; nothing of the file goes to the browser.
import { SshWireError, WireReader } from './ssh-wire.js';

export interface PrivateKeyFacts {
  format: 'openssh' | 'pem';
  /** Protected by a passphrase; null when the format does not say. */
  encrypted: boolean | null;
  /** The public key blob (OpenSSH format only). */
  publicBlob: Buffer | null;
}

const OPENSSH = /^-----BEGIN OPENSSH PRIVATE KEY-----\r?\n([\s\S]*?)-----END OPENSSH PRIVATE KEY-----/;
const PEM = /^-----BEGIN (RSA |DSA |EC |ENCRYPTED |)PRIVATE KEY-----/;
const MAGIC = 'openssh-key-v1\0';

/** null when the text is not a private key. */
export function privateKeyFacts(text: string): PrivateKeyFacts | null {
  const openssh = OPENSSH.exec(text);
  if (openssh) {
    const buf = Buffer.from(openssh[1].replace(/\s+/g, ''), 'base64');
    if (buf.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) return { format: 'openssh', encrypted: null, publicBlob: null };
    try {
      const r = new WireReader(buf.subarray(MAGIC.length));
      const cipher = r.string();
      r.string(); // kdf name
      r.bytes(); // kdf options
      const count = r.uint32();
      return { format: 'openssh', encrypted: cipher !== 'none', publicBlob: count >= 1 ? Buffer.from(r.bytes()) : null };
    } catch (err) {
      if (err instanceof SshWireError) return { format: 'openssh', encrypted: null, publicBlob: null };
      throw err;
    }
  }
  const pem = PEM.exec(text);
  if (pem) return { format: 'pem', encrypted: pem[1] === 'ENCRYPTED ' || /^Proc-Type: 4,ENCRYPTED/m.test(text), publicBlob: null };
  return null;
}
