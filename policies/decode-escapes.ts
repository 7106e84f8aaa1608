// One round of percent-decoding, as lenient as the most lenient decoder an upstream might run: a spelling that any
// of them reads as `/`, `.` or a letter must read so here too (policies/README.md, "Paths").

/** The value of hex digits at `text[at…at+digits)`, or -1 when one is not a hex digit. */
function hexAt(text: string, at: number, digits: number): number {
  if (at + digits > text.length) return -1;
  let v = 0;
  for (let i = at; i < at + digits; i++) {
    const c = text.charCodeAt(i);
    const d = c >= 48 && c <= 57 ? c - 48 : (c | 0x20) >= 97 && (c | 0x20) <= 102 ? (c | 0x20) - 87 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** Appends the UTF-8 bytes of one code point (lone surrogates included: the decoder turns them back into escapes). */
function pushUtf8(bytes: number[], cp: number): void {
  if (cp < 0x80) bytes.push(cp);
  else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
  else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
}

/** Bytes a UTF-8 sequence starting with `lead` claims, 0 for a byte that cannot start one. 5 and 6 are pre-2003. */
function sequenceLength(lead: number): number {
  if (lead < 0xc0) return 0;
  if (lead < 0xe0) return 2;
  if (lead < 0xf0) return 3;
  if (lead < 0xf8) return 4;
  if (lead < 0xfc) return 5;
  return lead < 0xfe ? 6 : 0;
}

/**
 * Decodes `%XX` and IIS's `%uXXXX` escapes, reading the resulting bytes as UTF-8 together with the characters
 * around them (non-ASCII text counts as its UTF-8 bytes). Overlong forms decode to the character they spell
 * (`%C0%AF` is `/`, as old IIS and Tomcat read it). What is no character at all (a stray byte, an encoded
 * surrogate, a lone `%uD800`) stays an escape, in lower case, so decoding it again changes nothing. A `%` that
 * starts no escape stays a `%`.
 */
export function decodeEscapes(text: string): string {
  const bytes: number[] = [];
  // Where an unpaired `%uXXXX` surrogate sat: it cannot be written as bytes, so its escape text is kept.
  let kept: Map<number, string> | null = null;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === 37 /* % */) {
      const byte = hexAt(text, i + 1, 2);
      if (byte >= 0) { bytes.push(byte); i += 3; continue; }
      if ((text.charCodeAt(i + 1) | 0x20) === 117 /* u */) {
        const unit = hexAt(text, i + 2, 4);
        if (unit >= 0) {
          const low = unit >= 0xd800 && unit < 0xdc00 && text.charCodeAt(i + 6) === 37 && (text.charCodeAt(i + 7) | 0x20) === 117
            ? hexAt(text, i + 8, 4) : -1;
          if (low >= 0xdc00 && low < 0xe000) {
            pushUtf8(bytes, 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00));
            i += 12;
          } else if (unit >= 0xd800 && unit < 0xe000) {
            (kept ??= new Map()).set(bytes.length, `%u${text.slice(i + 2, i + 6).toLowerCase()}`);
            bytes.push(-1);
            i += 6;
          } else {
            pushUtf8(bytes, unit);
            i += 6;
          }
          continue;
        }
      }
    }
    const cp = text.codePointAt(i)!;
    pushUtf8(bytes, cp);
    i += cp > 0xffff ? 2 : 1;
  }
  return readUtf8(bytes, kept);
}

function readUtf8(bytes: readonly number[], kept: ReadonlyMap<number, string> | null): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    if (b === -1) { out += kept!.get(i)!; i++; continue; }
    if (b < 0x80) { out += String.fromCharCode(b); i++; continue; }
    const n = sequenceLength(b);
    let cp = n === 0 ? -1 : b & (0x7f >> n);
    for (let k = 1; k < n && cp >= 0; k++) {
      const next = i + k < bytes.length ? bytes[i + k] : -1;
      cp = next >= 0 && (next & 0xc0) === 0x80 ? cp * 64 + (next & 63) : -1;
    }
    if (cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) {
      out += `%${b.toString(16).padStart(2, '0')}`;
      i++;
    } else {
      out += String.fromCodePoint(cp);
      i += n;
    }
  }
  return out;
}
