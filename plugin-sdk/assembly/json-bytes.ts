// Byte-level helpers of the JSON reader (json-document.ts).

@inline export function skipSpace(base: usize, i: i32, n: i32): i32 {
  while (i < n) {
    const c = <i32>load<u8>(base + <usize>i);
    if (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09) break;
    i++;
  }
  return i;
}

@inline export function skipDigits(base: usize, i: i32, n: i32): i32 {
  while (i < n) {
    const c = <i32>load<u8>(base + <usize>i);
    if (c < 0x30 || c > 0x39) break;
    i++;
  }
  return i;
}

const ONES: u64 = 0x0101010101010101;
const HIGHS: u64 = 0x8080808080808080;

/** Whether any byte of `v` equals `b` (SWAR: a zero byte in v ^ b…b). */
@inline export function hasByte(v: u64, b: u64): bool {
  const x = v ^ (ONES * b);
  return ((x - ONES) & ~x & HIGHS) != 0;
}

/** Whether any byte of `v` is below `b` (b ≤ 128). */
@inline export function hasByteBelow(v: u64, b: u64): bool {
  return ((v - ONES * b) & ~v & HIGHS) != 0;
}

export function hexValue(c: i32): i32 {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  c |= 0x20;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/** Resolves the escapes of a string literal's body (already validated by the reader). */
export function unescapeJson(s: string): string {
  const parts = new Array<string>();
  const n = s.length;
  let segment = 0;
  let i = 0;
  while (i < n) {
    if (s.charCodeAt(i) != 0x5c) { i++; continue; }
    parts.push(s.substring(segment, i));
    const e = s.charCodeAt(i + 1);
    if (e == 0x75) {
      let code = 0;
      for (let k = 2; k < 6; k++) code = (code << 4) | hexValue(s.charCodeAt(i + k));
      // Surrogate halves stay UTF-16 units: a pair written as two escapes joins back into one character.
      parts.push(String.fromCharCode(code));
      i += 6;
    } else {
      if (e == 0x62) parts.push("\b");
      else if (e == 0x66) parts.push("\f");
      else if (e == 0x6e) parts.push("\n");
      else if (e == 0x72) parts.push("\r");
      else if (e == 0x74) parts.push("\t");
      else parts.push(String.fromCharCode(e));
      i += 2;
    }
    segment = i;
  }
  parts.push(s.substring(segment, n));
  return parts.join("");
}
