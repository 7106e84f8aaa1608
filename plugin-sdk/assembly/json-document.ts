// A JSON reader for policy guests, sized for the policy ABI.
//
// It parses UTF-8 bytes into a flat "tape" of tokens (4 × i32 each) and materialises strings only when
// asked. A batch of views is tens of kilobytes and a policy reads a few fields of each, so building a tree of
// objects and strings for every value would cost most of the call (allocations dominate in AssemblyScript).
//
// Tape token layout, at index t (words 4t .. 4t+3):
//   0: kind | HAS_ESCAPE          1: start byte offset (strings: after the opening quote)
//   2: end byte offset (strings: the closing quote), or for arrays and objects the number of children
//   3: index of the token after this value's subtree (so siblings are skipped in O(1))
// An object's children are key, value, key, value, …; `count` is the number of members.

import { hasByte, hasByteBelow, hexValue, skipDigits, skipSpace, unescapeJson } from "./json-bytes";

export const enum JsonKind {
  Null = 0,
  Bool = 1,
  Number = 2,
  String = 3,
  Array = 4,
  Object = 5,
}

const HAS_ESCAPE: i32 = 0x100;
const KIND_MASK: i32 = 0xff;
/** Nesting deeper than this is rejected: recursion uses guest stack, and the ABI never nests this deep. */
const MAX_DEPTH: i32 = 64;

/** A parsed JSON text. Nodes are token indices; -1 means "absent". */
export class JsonDocument {
  private bytes: Uint8Array = new Uint8Array(0);
  private base: usize = 0;
  private size: i32 = 0;
  /** Token index of each open container while tokenizing. */
  private open: StaticArray<i32> = new StaticArray<i32>(MAX_DEPTH + 1);
  // Grown by doubling and written with unchecked stores: pushing tokens is the parser's hottest path.
  private tape: StaticArray<i32> = new StaticArray<i32>(1024);
  private tapeLength: i32 = 0;

  /** Parses UTF-8 JSON. Malformed input throws (the guest traps; the host counts the failure). */
  static parse(bytes: Uint8Array): JsonDocument {
    const doc = new JsonDocument();
    if (!doc.load(bytes)) throw new Error(doc.error);
    return doc;
  }

  /** Parses UTF-8 JSON, or returns null when it is malformed. Use it for anything a client controls. */
  static tryParse(bytes: Uint8Array): JsonDocument | null {
    const doc = new JsonDocument();
    return doc.load(bytes) ? doc : null;
  }

  static parseText(text: string): JsonDocument {
    return JsonDocument.parse(Uint8Array.wrap(String.UTF8.encode(text)));
  }

  static tryParseText(text: string): JsonDocument | null {
    return JsonDocument.tryParse(Uint8Array.wrap(String.UTF8.encode(text)));
  }

  /** Why the last load failed, or "". */
  error: string = "";

  /**
   * Replaces this document's content, reusing its tape (no allocation once warm). Returns false when `bytes` is
   * not one well-formed JSON value; `error` says why.
   */
  load(bytes: Uint8Array): bool {
    this.bytes = bytes;
    this.base = bytes.dataStart;
    this.size = bytes.length;
    this.error = "";
    this.tapeLength = 0;
    const end = this.tokenize();
    if (this.error.length == 0 && end != this.size) this.failAt(end, "trailing characters");
    if (this.error.length > 0) {
      this.tapeLength = 0;
      this.push(JsonKind.Null, 0, 0); // a failed document reads as null, never as stale content
      return false;
    }
    return true;
  }

  /** The top-level value. */
  get root(): i32 {
    return 0;
  }

  kind(node: i32): i32 {
    return node < 0 ? -1 : unchecked(this.tape[node << 2]) & KIND_MASK;
  }

  /** Children of an array, members of an object, 0 otherwise. */
  count(node: i32): i32 {
    const k = this.kind(node);
    return k == JsonKind.Array || k == JsonKind.Object ? unchecked(this.tape[(node << 2) + 2]) : 0;
  }

  /** The first element of an array or the first key of an object, or -1. */
  first(node: i32): i32 {
    return this.count(node) > 0 ? node + 1 : -1;
  }

  /** The value after `node` among its siblings (the caller bounds the walk with `count`). */
  next(node: i32): i32 {
    return unchecked(this.tape[(node << 2) + 3]);
  }

  /** For an object member's key node: the member after it. */
  nextMember(key: i32): i32 {
    return this.next(key + 1);
  }

  /** The member `key` of object `node`, or -1. Compares bytes; allocates only for keys with escapes. */
  get(node: i32, key: string): i32 {
    if (this.kind(node) != JsonKind.Object) return -1;
    const n = this.count(node);
    let k = node + 1;
    for (let i = 0; i < n; i++) {
      if (this.textEquals(k, key)) return k + 1;
      k = this.next(k + 1);
    }
    return -1;
  }

  /** The element at `index` of array `node`, or -1. */
  at(node: i32, index: i32): i32 {
    if (this.kind(node) != JsonKind.Array || index < 0 || index >= this.count(node)) return -1;
    let e = node + 1;
    for (let i = 0; i < index; i++) e = this.next(e);
    return e;
  }

  isString(node: i32): bool { return this.kind(node) == JsonKind.String; }
  isNumber(node: i32): bool { return this.kind(node) == JsonKind.Number; }

  /** A boolean's value; false for anything else. */
  bool(node: i32): bool {
    return this.kind(node) == JsonKind.Bool && load<u8>(this.base + <usize>this.start(node)) == 0x74;
  }

  /** A number's value (NaN for non-numbers). For digit runs beyond 2^53 use `text`, which keeps every digit. */
  number(node: i32): f64 {
    if (this.kind(node) != JsonKind.Number) return NaN;
    return parseFloat(this.raw(node));
  }

  /**
   * A string's value, or a number's literal text; "" for other kinds. Allocates the string.
   */
  text(node: i32): string {
    const k = this.kind(node);
    if (k == JsonKind.Number) return this.raw(node);
    if (k != JsonKind.String) return "";
    const raw = this.raw(node);
    return (unchecked(this.tape[node << 2]) & HAS_ESCAPE) != 0 ? unescapeJson(raw) : raw;
  }

  /** Whether string (or number) `node` equals `s`, without allocating for plain ASCII. */
  textEquals(node: i32, s: string): bool {
    const k = this.kind(node);
    if (k != JsonKind.String && k != JsonKind.Number) return false;
    const head = unchecked(this.tape[node << 2]);
    const start = this.start(node);
    const len = unchecked(this.tape[(node << 2) + 2]) - start;
    if ((head & HAS_ESCAPE) == 0 && len == s.length) {
      let ascii = true;
      for (let i = 0; i < len; i++) {
        const b = <i32>load<u8>(this.base + <usize>(start + i));
        if (b >= 0x80) { ascii = false; break; }
        if (b != s.charCodeAt(i)) return false;
      }
      if (ascii) return true;
    } else if ((head & HAS_ESCAPE) == 0 && len < s.length) {
      return false; // UTF-8 is never shorter in bytes than the UTF-16 string has units
    }
    return this.text(node) == s;
  }

  /** The byte length of a string's (or number's) source text, escapes as written; 0 for other kinds. */
  rawLength(node: i32): i32 {
    const k = this.kind(node);
    if (k != JsonKind.String && k != JsonKind.Number) return 0;
    return unchecked(this.tape[(node << 2) + 2]) - this.start(node);
  }

  /** Byte `index` of a string's (or number's) source text, or -1 out of range. */
  rawByte(node: i32, index: i32): i32 {
    if (index < 0 || index >= this.rawLength(node)) return -1;
    return this.byteAt(this.start(node) + index);
  }

  private start(node: i32): i32 {
    return unchecked(this.tape[(node << 2) + 1]);
  }

  /** The token's source text, decoded from UTF-8 without unescaping. */
  private raw(node: i32): string {
    const start = this.start(node);
    const end = unchecked(this.tape[(node << 2) + 2]);
    return String.UTF8.decodeUnsafe(this.base + <usize>start, <usize>(end - start));
  }

  /** Records the first error; returns -1 so callers can `return this.failAt(…)`. */
  private failAt(at: i32, what: string): i32 {
    if (this.error.length == 0) this.error = "json: " + what + " at byte " + at.toString();
    return -1;
  }

  @inline private byteAt(i: i32): i32 {
    return <i32>load<u8>(this.base + <usize>i);
  }

  @inline private push(kind: i32, start: i32, end: i32): i32 {
    let t = this.tape;
    const at = this.tapeLength;
    if (at + 4 > t.length) t = this.growTape();
    unchecked(t[at] = kind);
    unchecked(t[at + 1] = start);
    unchecked(t[at + 2] = end);
    unchecked(t[at + 3] = (at >> 2) + 1);
    this.tapeLength = at + 4;
    return at >> 2;
  }

  private growTape(): StaticArray<i32> {
    const t = this.tape;
    const grown = new StaticArray<i32>(t.length << 1);
    memory.copy(changetype<usize>(grown), changetype<usize>(t), <usize>this.tapeLength << 2);
    this.tape = grown;
    return grown;
  }

  /**
   * Fills the tape with one value and returns the offset after it and any trailing whitespace, or -1 with `error`
   * set. Iterative, with the open containers on a small stack: no recursion, and the position stays in a local.
   */
  private tokenize(): i32 {
    const base = this.base;
    const n = this.size;
    const open = this.open;
    let depth = 0;
    let i = skipSpace(base, 0, n);
    while (true) {
      // A value starts at i.
      if (i >= n) return this.failAt(i, "unexpected end");
      const c = <i32>load<u8>(base + <usize>i);
      if (c == 0x7b || c == 0x5b) {
        if (depth >= MAX_DEPTH) return this.failAt(i, "nesting too deep");
        const kind = c == 0x7b ? JsonKind.Object : JsonKind.Array;
        const index = this.push(kind, i, 0);
        unchecked(open[depth++] = index);
        i = skipSpace(base, i + 1, n);
        if (i < n && <i32>load<u8>(base + <usize>i) == c + 2) { // `}` and `]` follow `{` and `[` by 2
          depth--;
          i++;
        } else {
          if (kind == JsonKind.Object) {
            i = this.scanKey(i);
            if (i < 0) return -1;
          }
          continue;
        }
      } else if (c == 0x22) {
        i = this.scanString(i);
      } else if (c == 0x2d || (c >= 0x30 && c <= 0x39)) {
        i = this.scanNumber(i);
      } else if (c == 0x74) {
        i = this.scanWord(i, "true", JsonKind.Bool);
      } else if (c == 0x66) {
        i = this.scanWord(i, "false", JsonKind.Bool);
      } else if (c == 0x6e) {
        i = this.scanWord(i, "null", JsonKind.Null);
      } else {
        return this.failAt(i, "unexpected character");
      }
      if (i < 0) return -1;
      // A value ended before i: count it in its container, then close containers or go on to the next value.
      while (true) {
        i = skipSpace(base, i, n);
        if (depth == 0) return i;
        const top = unchecked(open[depth - 1]);
        const t = this.tape;
        unchecked(t[(top << 2) + 2] = unchecked(t[(top << 2) + 2]) + 1);
        if (i >= n) return this.failAt(i, "unterminated container");
        const d = <i32>load<u8>(base + <usize>i);
        const isObject = (unchecked(t[top << 2]) & KIND_MASK) == JsonKind.Object;
        if (d == 0x2c) {
          i = skipSpace(base, i + 1, n);
          if (isObject) {
            i = this.scanKey(i);
            if (i < 0) return -1;
          }
          break;
        }
        if (d != (isObject ? 0x7d : 0x5d)) return this.failAt(i, "expected , or a closing bracket");
        unchecked(t[(top << 2) + 3] = this.tapeLength >> 2);
        depth--;
        i++;
      }
    }
  }

  /** A member's key and colon at i; returns where its value starts, or -1. */
  private scanKey(i: i32): i32 {
    const base = this.base;
    const n = this.size;
    if (i >= n || <i32>load<u8>(base + <usize>i) != 0x22) return this.failAt(i, "expected a key");
    i = this.scanString(i);
    if (i < 0) return -1;
    i = skipSpace(base, i, n);
    if (i >= n || <i32>load<u8>(base + <usize>i) != 0x3a) return this.failAt(i, "expected :");
    return skipSpace(base, i + 1, n);
  }

  private scanWord(i: i32, word: string, kind: i32): i32 {
    const len = word.length;
    if (i + len > this.size) return this.failAt(i, "invalid literal");
    for (let k = 0; k < len; k++) {
      if (this.byteAt(i + k) != word.charCodeAt(k)) return this.failAt(i, "invalid literal");
    }
    this.push(kind, i, i + len);
    return i + len;
  }

  private scanNumber(start: i32): i32 {
    const base = this.base;
    const n = this.size;
    let i = start;
    if (<i32>load<u8>(base + <usize>i) == 0x2d) i++;
    let from = i;
    i = skipDigits(base, i, n);
    if (i == from) return this.failAt(i, "invalid number");
    if (i < n && <i32>load<u8>(base + <usize>i) == 0x2e) {
      from = ++i;
      i = skipDigits(base, i, n);
      if (i == from) return this.failAt(i, "invalid number");
    }
    if (i < n && (<i32>load<u8>(base + <usize>i) | 0x20) == 0x65) {
      i++;
      if (i < n) {
        const sign = <i32>load<u8>(base + <usize>i);
        if (sign == 0x2b || sign == 0x2d) i++;
      }
      from = i;
      i = skipDigits(base, i, n);
      if (i == from) return this.failAt(i, "invalid number");
    }
    this.push(JsonKind.Number, start, i);
    return i;
  }

  /** The string whose opening quote is at `quote`; returns the offset after its closing quote, or -1. */
  private scanString(quote: i32): i32 {
    const base = this.base;
    const n = this.size;
    const start = quote + 1;
    let i = start;
    let flags = 0;
    while (i < n) {
      // Eight bytes at a time while none of them is a quote, a backslash or a control character.
      while (i + 8 <= n) {
        const v = load<u64>(base + <usize>i);
        if (hasByte(v, 0x22) || hasByte(v, 0x5c) || hasByteBelow(v, 0x20)) break;
        i += 8;
      }
      if (i >= n) break;
      const c = <i32>load<u8>(base + <usize>i);
      if (c == 0x22) {
        this.push(JsonKind.String | flags, start, i);
        return i + 1;
      }
      if (c < 0x20) return this.failAt(i, "control character in string");
      if (c == 0x5c) {
        flags = HAS_ESCAPE;
        if (i + 1 >= n) break;
        const e = <i32>load<u8>(base + <usize>(i + 1));
        if (e == 0x75) {
          for (let k = 2; k < 6; k++) {
            if (i + k >= n || hexValue(<i32>load<u8>(base + <usize>(i + k))) < 0) return this.failAt(i, "invalid \\u escape");
          }
          i += 6;
          continue;
        }
        if (e != 0x22 && e != 0x5c && e != 0x2f && e != 0x62 && e != 0x66 && e != 0x6e && e != 0x72 && e != 0x74) {
          return this.failAt(i, "invalid escape");
        }
        i += 2;
        continue;
      }
      i++;
    }
    return this.failAt(n, "unterminated string");
  }
}
