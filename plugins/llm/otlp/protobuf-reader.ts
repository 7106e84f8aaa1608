/**
 * A bounded protobuf wire reader: enough of the wire format for the OTLP messages, and no more.
 *
 * Every read is checked against `end`, the end of the message being decoded (not of the buffer), so a length that
 * claims more than its enclosing message holds is an error, never a read into the next field. Nothing here throws
 * anything but OtlpDecodeError, and every loop advances at least one byte, so hostile input ends quickly.
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { OtlpDecodeError } from './decode-error.js';

/** Wire types, as the protobuf encoding spec numbers them. */
export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_I32 = 5;

const TWO_32 = 4294967296;

/**
 * Buffer's own slice decoders (what `toString(encoding, start, end)` calls after checking its arguments, which
 * `string()` has already done): present on every Node Buffer, though not in @types/node. protobufjs reads strings
 * the same way.
 */
interface SlicingBuffer extends Buffer {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
  hexSlice(start: number, end: number): string;
}
// Strings shorter than this are checked and built in JS; longer ones go to the native UTF-8 check and decoder,
// whose fixed cost per call is larger than a short loop's.
const SHORT_STRING = 48;

export class ProtobufReader {
  pos = 0;
  /** End of the message being read; reads never pass it. */
  end: number;
  private readonly buf: SlicingBuffer;
  private readonly view: DataView;

  constructor(bytes: Uint8Array) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as SlicingBuffer;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.end = bytes.byteLength;
  }

  truncated(what: string): never {
    throw new OtlpDecodeError('truncated', `protobuf: ${what} runs past the end of its message at byte ${this.pos}`);
  }

  /** An unsigned varint as a double: exact below 2^53 (tags, lengths, enums, counts). */
  varint(): number {
    const buf = this.buf;
    let pos = this.pos;
    const end = this.end;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (pos >= end) { this.pos = pos; this.truncated('a varint'); }
      const b = buf[pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) { this.pos = pos; return result; }
      scale *= 128;
    }
    this.pos = pos;
    throw new OtlpDecodeError('varint_too_long', `protobuf: a varint longer than 10 bytes at byte ${pos}`);
  }

  /** A two's-complement int64 varint: a number when it is a safe integer, its decimal string otherwise. */
  int64(): number | string {
    const buf = this.buf;
    const end = this.end;
    let lo = 0;
    let hi = 0;
    let pos = this.pos;
    for (let i = 0; i < 10; i++) {
      if (pos >= end) { this.pos = pos; this.truncated('a varint'); }
      const b = buf[pos++];
      const bits = b & 0x7f;
      const shift = i * 7;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) { lo |= (bits & 0x0f) << 28; hi |= bits >>> 4; }
      else hi |= bits << (shift - 32);
      if (b < 0x80) {
        this.pos = pos;
        lo >>>= 0;
        hi >>>= 0;
        if (hi < 0x200000) return hi * TWO_32 + lo;
        const value = BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
        return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
      }
    }
    this.pos = pos;
    throw new OtlpDecodeError('varint_too_long', `protobuf: a varint longer than 10 bytes at byte ${pos}`);
  }

  /** fixed64 as a double (nanosecond timestamps: exact to ±128 ns today). */
  fixed64(): number {
    if (this.pos + 8 > this.end) this.truncated('a fixed64');
    const lo = this.view.getUint32(this.pos, true);
    const hi = this.view.getUint32(this.pos + 4, true);
    this.pos += 8;
    return hi * TWO_32 + lo;
  }

  double(): number {
    if (this.pos + 8 > this.end) this.truncated('a double');
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  fixed32(): number {
    if (this.pos + 4 > this.end) this.truncated('a fixed32');
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /** Reads a length prefix and returns the end of the bytes it announces (checked against the message's end). */
  lengthEnd(): number {
    const len = this.varint();
    const stop = this.pos + len;
    if (stop > this.end) this.truncated(`a length of ${len} bytes`);
    return stop;
  }

  bytes(): Uint8Array {
    const stop = this.lengthEnd();
    // A copy: the request buffer is not kept alive by one attribute, and callers may keep the value.
    const out = new Uint8Array(this.buf.subarray(this.pos, stop));
    this.pos = stop;
    return out;
  }

  /** Lowercase hex of a bytes field (trace and span ids). */
  hex(): string {
    const stop = this.lengthEnd();
    const out = this.buf.hexSlice(this.pos, stop);
    this.pos = stop;
    return out;
  }

  string(): string {
    const stop = this.lengthEnd();
    const start = this.pos;
    this.pos = stop;
    const buf = this.buf;
    if (stop - start < SHORT_STRING) {
      let ascii = true;
      for (let i = start; i < stop; i++) if (buf[i] >= 0x80) { ascii = false; break; }
      if (ascii) return buf.latin1Slice(start, stop);
    }
    if (!isUtf8(buf.subarray(start, stop))) {
      throw new OtlpDecodeError('invalid_utf8', `protobuf: a string field at byte ${start} is not valid UTF-8`);
    }
    return buf.utf8Slice(start, stop);
  }

  /** Skips a field this decoder does not use (unknown fields, links, packed values all included). */
  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT: this.varint(); return;
      case WIRE_I64: if (this.pos + 8 > this.end) this.truncated('a fixed64'); this.pos += 8; return;
      case WIRE_LEN: this.pos = this.lengthEnd(); return;
      case WIRE_I32: if (this.pos + 4 > this.end) this.truncated('a fixed32'); this.pos += 4; return;
      default:
        throw new OtlpDecodeError('invalid_wire_type', `protobuf: wire type ${wireType} at byte ${this.pos} does not occur in OTLP`);
    }
  }
}
