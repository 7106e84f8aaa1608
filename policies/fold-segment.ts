// One round of the fold on one path segment. fold-path.ts repeats rounds until nothing changes, so a step that
// reveals work for another (a decoded `%3B` is a `;` to cut) is finished by the next round.
import { decodeEscapes } from './decode-escapes.js';

// WHATWG URL drops tabs and newlines wherever they are.
const TAB_OR_NEWLINE = /[\t\n\r]/g;
const NEEDS_DECODING = /[%\u0080-\uffff]/;
const NON_ASCII = /[\u0080-\uffff]/;
const ASCII_UPPER = /[A-Z]/;
// What `İ` lowers to in full Unicode; Java's char-by-char case lowers it to `i`.
const DOTTED_I = /i\u0307/g;
// Escaped on output so a folded path is printable ASCII: controls, DEL and everything beyond ASCII (as UTF-8).
const UNPRINTABLE = /[\u0000-\u001f\u007f-\uffff]+/g;
const UNPRINTABLE_ONE = /[\u0000-\u001f\u007f-\uffff]/;
const SEPARATORS = /[/\\]/g;
const BACKSLASHES = /\\/g;
const utf8 = new TextEncoder();

/**
 * What a decoded `/` or `\` inside a segment becomes in the literal router reading: text that `*` matches and that
 * no folded glob literal holds (the fold decodes every `%2f` of a glob).
 */
export const IN_SEGMENT_SEPARATOR = '%2f';

/**
 * One round on `segment` (no raw `/` or `\` in it): tabs and newlines dropped, `;` parameters cut, escapes decoded,
 * NFKC, lower case, cut at NUL, blanks trimmed and trailing dots stripped, unprintable characters escaped. A decoded
 * `/` or `\` stays in the result, as `/` (the decoding reading splits on it next round) or as
 * `IN_SEGMENT_SEPARATOR` (the literal router reading keeps the segment whole).
 */
export function foldSegmentOnce(segment: string, keepSeparatorsInSegment: boolean): string {
  if (isPlainSegment(segment)) return segment;
  let s = segment.replace(TAB_OR_NEWLINE, '');
  // Tomcat, Jetty and Spring cut path parameters before they decode.
  const semicolon = s.indexOf(';');
  if (semicolon !== -1) s = s.slice(0, semicolon);
  if (NEEDS_DECODING.test(s)) s = decodeEscapes(s);
  if (NON_ASCII.test(s)) s = unicodeCaseless(s.normalize('NFKC'));
  else if (ASCII_UPPER.test(s)) s = s.toLowerCase();
  // A server written in C reads a name up to its NUL.
  const nul = s.indexOf('\0');
  if (nul !== -1) s = s.slice(0, nul);
  s = trimSegment(s);
  s = keepSeparatorsInSegment ? s.replace(SEPARATORS, IN_SEGMENT_SEPARATOR) : s.replace(BACKSLASHES, '/');
  return UNPRINTABLE_ONE.test(s) ? s.replace(UNPRINTABLE, utf8Escapes) : s;
}

/** True when a round leaves `segment` as it is (most segments of most paths): one scan, no allocation. */
export function isPlainSegment(segment: string): boolean {
  const n = segment.length;
  for (let i = 0; i < n; i++) {
    const c = segment.charCodeAt(i);
    // Printable ASCII but upper case, `%`, `;` and `\`.
    if (c <= 0x20 || c >= 0x7f || (c >= 65 && c <= 90) || c === 37 || c === 59 || c === 92) return false;
  }
  const last = n === 0 ? 0 : segment.charCodeAt(n - 1);
  // A trailing dot is stripped unless the segment is dots alone.
  return last !== 46 || /^\.+$/.test(segment);
}

/**
 * Lower case, as case-insensitive comparisons that go through upper case also see it: `ı` (dotless) and `ſ` (long
 * s) upper-case to `I` and `S` (Java's `equalsIgnoreCase`), and `İ` lowers to `i`.
 */
function unicodeCaseless(s: string): string {
  return s.toUpperCase().toLowerCase().replace(DOTTED_I, 'i');
}

function utf8Escapes(run: string): string {
  let out = '';
  for (const b of utf8.encode(run)) out += b < 16 ? `%0${b.toString(16)}` : `%${b.toString(16)}`;
  return out;
}

/**
 * Every character up to U+0020 (what Java's `trim` removes) and Unicode white space (Java's `isWhitespace`,
 * JavaScript's `trim`), with the zero-width space and NEL.
 */
function isBlank(c: number): boolean {
  return c <= 0x20 || (c >= 0x85 && (c === 0x85 || c === 0xa0 || c === 0x1680 || c === 0x180e || (c >= 0x2000 && c <= 0x200b)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
}

/**
 * Blanks at both ends and, as Windows and IIS read a name, dots at the end. A segment of dots alone (`.`, `..`,
 * `...`) keeps them: those are dot segments.
 */
function trimSegment(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isBlank(s.charCodeAt(start))) start++;
  while (end > start && isBlank(s.charCodeAt(end - 1))) end--;
  let name = end;
  while (name > start && (s.charCodeAt(name - 1) === 46 /* . */ || isBlank(s.charCodeAt(name - 1)))) name--;
  if (name > start) end = name;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}
