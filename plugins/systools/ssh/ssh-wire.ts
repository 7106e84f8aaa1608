// The SSH wire format's strings and integers (RFC 4251 §5), read from a key blob: enough to learn a key's type and
// size. Reads never run past the buffer: a short or lying length throws.

export class SshWireError extends Error {}

export class WireReader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}

  uint32(): number {
    if (this.at + 4 > this.buf.length) throw new SshWireError('the key data ends early');
    const n = this.buf.readUInt32BE(this.at);
    this.at += 4;
    return n;
  }

  bytes(): Buffer {
    const n = this.uint32();
    if (this.at + n > this.buf.length) throw new SshWireError('a length in the key data runs past its end');
    const b = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }

  string(): string {
    return this.bytes().toString('latin1');
  }

  /** Bytes read from the start of the buffer. */
  get offset(): number {
    return this.at;
  }
}

/** Bits of an mpint (two's complement, big-endian, a leading 0 byte when the top bit is set): OpenSSL's BN_num_bits. */
export function mpintBits(b: Buffer): number {
  let i = 0;
  while (i < b.length && b[i] === 0) i++;
  if (i === b.length) return 0;
  return (b.length - i - 1) * 8 + (32 - Math.clz32(b[i]));
}
