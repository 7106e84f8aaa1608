/**
 * The trimmed word vectors on disk: one file, read whole in a few milliseconds.
 *
 *   "VGLOVE\0\1"            8 bytes, magic and format version
 *   u32 LE header length     then the header, JSON (source, counts, dims, wordsBytes), padded with spaces to 4 bytes
 *   f32 LE × dims            the common direction removed from every sentence vector (unit length, or all zeros)
 *   f32 LE × count           one scale per word: value = int8 × scale
 *   i8 × count × dims        the vectors, quantised per word to its largest magnitude (error ≤ scale / 2)
 *   UTF-8 × wordsBytes       the words in frequency order, '\n' between them
 *   u32 LE                   CRC-32 of every byte before it
 *
 * The file is written to a temporary name in the same directory, flushed, then renamed over the final name: a
 * crash leaves either no file or a whole one, and a reader that finds a wrong length or checksum treats the file as
 * absent (it is converted again).
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

const MAGIC = Buffer.from('VGLOVE\u0000\u0001', 'latin1');

export interface GloveHeader {
  /** npm package the vectors came from, and its version. */
  source: string;
  sourceVersion: string;
  /** Words in the source vocabulary, for Zipf's p(w). */
  sourceSize: number;
  count: number;
  dims: number;
  wordsBytes: number;
}

export interface GloveVectors extends Omit<GloveHeader, 'wordsBytes'> {
  words: string[];
  /** word → rank (its index in `words`). */
  index: Map<string, number>;
  scales: Float32Array;
  values: Int8Array;
  /** Unit vector projected out of every sentence vector; all zeros when none was computed. */
  common: Float32Array;
}

export interface GloveContent {
  source: string;
  sourceVersion: string;
  sourceSize: number;
  dims: number;
  words: string[];
  scales: Float32Array;
  values: Int8Array;
  common: Float32Array;
}

/** The file's bytes, as the parts to write in order (nothing is copied into one big buffer). */
export function encodeGlove(content: GloveContent): Buffer[] {
  const { dims, words } = content;
  if (content.scales.length !== words.length || content.values.length !== words.length * dims || content.common.length !== dims) {
    throw new Error('glove file: the arrays do not match the word count and dimensions');
  }
  if (words.some((w) => w.includes('\n') || w === '')) throw new Error('glove file: a word is empty or holds a newline');
  const wordsBlob = Buffer.from(words.join('\n'), 'utf8');
  const header: GloveHeader = {
    source: content.source, sourceVersion: content.sourceVersion, sourceSize: content.sourceSize,
    count: words.length, dims, wordsBytes: wordsBlob.length,
  };
  let headerJson = JSON.stringify(header);
  // Pads so that the float arrays after it start on a 4-byte boundary of the file.
  while ((MAGIC.length + 4 + Buffer.byteLength(headerJson)) % 4 !== 0) headerJson += ' ';
  const headerBytes = Buffer.from(headerJson, 'utf8');
  const lead = Buffer.alloc(MAGIC.length + 4);
  MAGIC.copy(lead, 0);
  lead.writeUInt32LE(headerBytes.length, MAGIC.length);
  const parts = [
    lead, headerBytes,
    Buffer.from(content.common.buffer, content.common.byteOffset, content.common.byteLength),
    Buffer.from(content.scales.buffer, content.scales.byteOffset, content.scales.byteLength),
    Buffer.from(content.values.buffer, content.values.byteOffset, content.values.byteLength),
    wordsBlob,
  ];
  let crc = 0;
  for (const p of parts) crc = crc32(p, crc);
  const tail = Buffer.alloc(4);
  tail.writeUInt32LE(crc >>> 0, 0);
  parts.push(tail);
  return parts;
}

export interface WriteOptions {
  /** Test hook: after this many bytes reach the temporary file, the process kills itself (SIGKILL) mid-write. */
  simulateCrashAfterBytes?: number;
}

/** Writes the parts to `path` atomically (temporary file, fsync, rename, fsync of the directory). Returns the size. */
export async function writeAtomically(path: string, parts: Buffer[], options: WriteOptions = {}): Promise<number> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const file = await open(temp, 'wx');
  let written = 0;
  try {
    for (const part of parts) {
      const crashAt = options.simulateCrashAfterBytes;
      if (crashAt !== undefined && written + part.length > crashAt) {
        await file.write(part, 0, Math.max(0, crashAt - written));
        await file.sync();
        process.kill(process.pid, 'SIGKILL');
        await new Promise(() => {});
      }
      await file.write(part);
      written += part.length;
    }
    await file.sync();
  } catch (err) {
    await file.close().catch(() => {});
    await rm(temp, { force: true });
    throw err;
  }
  await file.close();
  try {
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  // The rename is durable once the directory entry is.
  const dir = await open(dirname(path), 'r');
  try { await dir.sync(); } catch { /* some filesystems refuse fsync on a directory; the rename still happened */ } finally { await dir.close(); }
  return written;
}

/** Parses a file written by `encodeGlove`; throws (never returns garbage) on a wrong magic, length or checksum. */
export function decodeGlove(bytes: Buffer): GloveVectors {
  const fail = (what: string): Error => new Error(`not a usable word-vector file: ${what}`);
  if (bytes.length < MAGIC.length + 8 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw fail('wrong magic or format version');
  const stored = bytes.readUInt32LE(bytes.length - 4);
  if ((crc32(bytes.subarray(0, bytes.length - 4)) >>> 0) !== stored) throw fail('checksum mismatch (truncated or damaged)');
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  let offset = MAGIC.length + 4;
  const header = JSON.parse(bytes.toString('utf8', offset, offset + headerLength)) as GloveHeader;
  offset += headerLength;
  const { count, dims } = header;
  const expected = offset + 4 * dims + 4 * count + count * dims + header.wordsBytes + 4;
  if (!Number.isInteger(count) || !Number.isInteger(dims) || expected !== bytes.length) throw fail('length does not match its header');
  const floats = (n: number): Float32Array => {
    const start = bytes.byteOffset + offset;
    offset += 4 * n;
    // A view when aligned (a whole-file read is); a copy otherwise.
    if (start % 4 === 0) return new Float32Array(bytes.buffer, start, n);
    return new Float32Array(bytes.buffer.slice(start, start + 4 * n));
  };
  const common = floats(dims);
  const scales = floats(count);
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + offset, count * dims);
  offset += count * dims;
  const words = bytes.toString('utf8', offset, offset + header.wordsBytes).split('\n');
  if (words.length !== count) throw fail(`${words.length} words for ${count} vectors`);
  const index = new Map<string, number>();
  for (let r = 0; r < count; r++) if (!index.has(words[r])) index.set(words[r], r);
  return {
    source: header.source, sourceVersion: header.sourceVersion, sourceSize: header.sourceSize,
    count, dims, words, index, scales, values, common,
  };
}

export async function readGlove(path: string): Promise<GloveVectors> {
  return decodeGlove(await readFile(path));
}
