/**
 * The Engine API's multiplexed stream (`application/vnd.docker.multiplexed-stream`), used for logs and attach when the
 * container has no TTY: each frame is an 8-byte header (stream type 0 stdin, 1 stdout, 2 stderr; three zero bytes; the
 * payload's length, big-endian uint32) and the payload. Chunks from the socket split frames anywhere: a demuxer keeps
 * the partial header or payload across calls. Memory: at most one header (8 bytes) held between chunks; payload bytes
 * are passed on as they arrive, never gathered into a whole frame.
 */
export class FrameDemuxer {
  private header: Buffer = Buffer.alloc(0);
  private remaining = 0;

  /** Feeds a chunk; returns the payload bytes it completes or continues (stdout and stderr alike, in order). */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let at = 0;
    while (at < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - at);
        out.push(chunk.subarray(at, at + take));
        this.remaining -= take;
        at += take;
        continue;
      }
      const need = 8 - this.header.length;
      const part = chunk.subarray(at, at + need);
      this.header = this.header.length ? Buffer.concat([this.header, part]) : part;
      at += part.length;
      if (this.header.length < 8) break;
      this.remaining = this.header.readUInt32BE(4);
      this.header = Buffer.alloc(0);
    }
    return out;
  }
}

/** Demultiplexes a whole bounded answer at once (the non-following logs). */
export function demultiplex(body: Buffer): Buffer {
  return Buffer.concat(new FrameDemuxer().push(body));
}
