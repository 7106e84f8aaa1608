// base64url (RFC 4648 §5) decoding, as used by JWT segments. Padding is optional; standard base64's `+` and `/`
// are accepted too, since tokens in the wild mix the alphabets.

function sextet(c: i32): i32 {
  if (c >= 0x41 && c <= 0x5a) return c - 0x41;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 26;
  if (c >= 0x30 && c <= 0x39) return c - 0x30 + 52;
  if (c == 0x2d || c == 0x2b) return 62;
  if (c == 0x5f || c == 0x2f) return 63;
  return -1;
}

/** The bytes `text` encodes, or null when it is not base64url. */
export function decodeBase64Url(text: string): Uint8Array | null {
  let n = text.length;
  while (n > 0 && text.charCodeAt(n - 1) == 0x3d) n--;
  if (n % 4 == 1) return null;
  const out = new Uint8Array((n * 3) >> 2);
  let acc: u32 = 0;
  let bits: i32 = 0;
  let o = 0;
  for (let i = 0; i < n; i++) {
    const v = sextet(text.charCodeAt(i));
    if (v < 0) return null;
    acc = (acc << 6) | <u32>v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = <u8>((acc >> <u32>bits) & 0xff);
    }
  }
  return out;
}

/** The UTF-8 text `text` encodes in base64url, or null. */
export function decodeBase64UrlText(text: string): string | null {
  const bytes = decodeBase64Url(text);
  if (bytes == null) return null;
  return String.UTF8.decode(bytes.buffer);
}
