// The JSON writer of policy guests: string literals that are always valid UTF-8 once encoded, and a piece builder.

const HEX_DIGITS = "0123456789abcdef";

function escapeUnit(c: i32): string {
  return "\\u" + HEX_DIGITS.charAt((c >> 12) & 15) + HEX_DIGITS.charAt((c >> 8) & 15) +
    HEX_DIGITS.charAt((c >> 4) & 15) + HEX_DIGITS.charAt(c & 15);
}

/** Whether unit `i` of `s` is half of a well-formed surrogate pair that starts at `i`. */
@inline function pairAt(s: string, i: i32, c: i32): bool {
  if (c > 0xdbff || i + 1 >= s.length) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/**
 * `s` as a JSON string literal. Lone surrogate halves are written as `\uXXXX` escapes so the UTF-8 the host
 * receives is always valid (a raw lone surrogate would encode to bytes the host rejects as invalid output).
 */
export function quoteJson(s: string): string {
  const n = s.length;
  let clean = true;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c == 0x22 || c == 0x5c) { clean = false; break; }
    if (c >= 0xd800 && c <= 0xdfff) {
      if (pairAt(s, i, c)) { i++; continue; }
      clean = false;
      break;
    }
  }
  if (clean) return "\"" + s + "\"";
  const parts = new Array<string>();
  parts.push("\"");
  let segment = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    let replacement: string | null = null;
    if (c == 0x22) replacement = "\\\"";
    else if (c == 0x5c) replacement = "\\\\";
    else if (c == 0x0a) replacement = "\\n";
    else if (c == 0x0d) replacement = "\\r";
    else if (c == 0x09) replacement = "\\t";
    else if (c < 0x20) replacement = escapeUnit(c);
    else if (c >= 0xd800 && c <= 0xdfff) {
      if (pairAt(s, i, c)) { i++; continue; }
      replacement = escapeUnit(c);
    }
    if (replacement != null) {
      parts.push(s.substring(segment, i));
      parts.push(replacement);
      segment = i + 1;
    }
  }
  parts.push(s.substring(segment, n));
  parts.push("\"");
  return parts.join("");
}

/** Builds a JSON text from pieces; joining once at the end avoids quadratic string concatenation. */
export class JsonWriter {
  private parts: string[] = new Array<string>();

  /** Appends JSON text as is (punctuation, or a value the caller already encoded). */
  raw(text: string): JsonWriter {
    this.parts.push(text);
    return this;
  }

  string(value: string): JsonWriter {
    this.parts.push(quoteJson(value));
    return this;
  }

  stringArray(values: string[]): JsonWriter {
    this.parts.push("[");
    for (let i = 0; i < values.length; i++) {
      if (i > 0) this.parts.push(",");
      this.parts.push(quoteJson(values[i]));
    }
    this.parts.push("]");
    return this;
  }

  toString(): string {
    return this.parts.join("");
  }
}
