/**
 * The paths rules are matched against. Governance only narrows capture, so when upstreams could read one
 * request-target as different paths, every rule that any reading meets applies: over-redaction is harmless,
 * under-redaction is a leak. policies/README.md ("Paths") has the fold step by step, with a table of spellings.
 *
 * Three readings, each folded (ASCII and Unicode case, `\` as `/`, `;` parameters cut, escapes decoded until
 * stable, NFKC, NUL, blanks and trailing dots), differ in what they take apart:
 * - decoding: encoded separators separate, dot segments resolve afterwards (IIS, Tomcat, Spring, nginx);
 * - WHATWG URL (`new URL(target, base)`): a leading `//host` is a host, `#` starts a fragment, dot segments resolve;
 * - literal router (Express, koa-router): segments as the raw `/` and `\` cut them, nothing resolved.
 * Each reading whose last segment carries an extension (`charge.json`) is read without it too: Spring's suffix
 * patterns, Rails' formats and JAX-RS extension mappings route `/api/payments/charge.json` to `/api/payments/charge`.
 * A proxy that decodes and forwards the bytes (nginx's `proxy_pass …$uri`) hands its upstream whatever the escapes
 * hid, so the part before a decoded character that ends a path there (`?`, `#`, NUL, a blank or a line break) is
 * read too.
 */
import { decodeEscapes } from './decode-escapes.js';
import { foldSegmentOnce, isPlainSegment } from './fold-segment.js';

/**
 * Rounds of the fold that may still change a path; one that changes it after that makes it ambiguous. Each round
 * decodes one layer of percent-encoding, so eight layers settle. No common upstream decodes that often.
 */
export const MAX_FOLD_ROUNDS = 8;

/**
 * Characters of a received path (query cut) beyond which it counts as ambiguous instead of being folded, unless it
 * needs no more than lower case: folding costs about a microsecond a character on a miss, on the traffic lane, and
 * a client must not buy milliseconds of it per request.
 */
export const MAX_FOLD_LENGTH = 2048;

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]{2}[^/\\?#]*/;
const AUTHORITY = /^[/\\]{2,}[^/\\]*/;

/** The request-target's path as received, without the query: what a record keeps. */
export function receivedPath(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

/**
 * True when every reading of `path` (a received path, query already cut) is `path` itself: lower-case ASCII
 * letters, digits and unreserved or sub-delimiter characters, no empty segment, no segment ending in a dot (that
 * includes `.` and `..`). The common case costs one scan and no allocation.
 */
export function isFolded(path: string): boolean {
  const n = path.length;
  if (n === 0 || path.charCodeAt(0) !== 47 /* / */) return false;
  if (n === 1) return true;
  for (let i = 1; i < n; i++) {
    const c = path.charCodeAt(i);
    if (c === 47) {
      const before = path.charCodeAt(i - 1);
      if (before === 47 || before === 46 /* . */) return false;
    } else if (!PLAIN[c]) {
      return false;
    }
  }
  const last = path.charCodeAt(n - 1);
  return last !== 47 && last !== 46;
}

// a-z 0-9 - . _ ~ ! $ & ' ( ) * + , = : @ (no upper case, %, \, ;, #, blank, control or non-ASCII character).
const PLAIN = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,=:@") PLAIN[c.charCodeAt(0)] = 1;

/**
 * `path` in lower case when capitals are all that keeps it from being folded (the commonest case after a folded
 * path): every reading is then that; else null.
 */
function foldedLowerCase(path: string): string | null {
  const lower = path.toLowerCase();
  return isFolded(lower) ? lower : null;
}

/** The path part of a request-target in origin form: absolute form loses scheme and authority; `*` becomes `/*`. */
function originForm(target: string): string {
  const c = target.charCodeAt(0);
  if (c === 47 || c === 92 /* \ */) return target;
  const m = ABSOLUTE_FORM.exec(target);
  const rest = m ? target.slice(m[0].length) : target;
  const r = rest.charCodeAt(0);
  return r === 47 || r === 92 ? rest : `/${rest}`;
}

/** `.` segments and empty ones dropped, `..` removes the one before (never above the root). */
function resolveDots(segments: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return out;
}

/** The decoding reading, one round: `path` starts with `/`. */
function decodingRound(path: string): string {
  const folded = path.replace(/\\/g, '/').split('/').map((s) => foldSegmentOnce(s, false));
  // A decoded separator splits here, so dot segments resolve after everything else.
  return `/${resolveDots(folded.join('/').split('/')).join('/')}`;
}

/**
 * The folded path: the decoding reading of `target`, the one WASM policies see. Null (ambiguous) when it does not
 * settle within `MAX_FOLD_ROUNDS`, or is longer than `MAX_FOLD_LENGTH` and needs more than lower case.
 */
export function foldPath(target: string): string | null {
  const path = receivedPath(target);
  if (isFolded(path)) return path;
  const lower = foldedLowerCase(path);
  if (lower !== null) return lower;
  if (path.length > MAX_FOLD_LENGTH) return null;
  let current = originForm(path);
  for (let round = 1; ; round++) {
    const next = decodingRound(current);
    if (next === current) return next;
    if (round > MAX_FOLD_ROUNDS) return null;
    if (isFolded(next)) return next;
    current = next;
  }
}

/** One segment folded until stable, separators kept inside it; null when it does not settle. */
function foldSegment(segment: string): string | null {
  let current = segment;
  for (let round = 1; ; round++) {
    const next = foldSegmentOnce(current, true);
    if (next === current) return next;
    if (round > MAX_FOLD_ROUNDS) return null;
    if (isPlainSegment(next)) return next;
    current = next;
  }
}

/**
 * The readings of `path` without its last segment's extension, from its first dot (Spring's `/charge.*` also
 * meets `charge.tar.gz`) and from its last (Rails' format); none when that segment has no extension. A leading dot
 * (`/.well-known`) names a file, not an extension.
 */
function withoutExtension(path: string): string[] {
  const slash = path.lastIndexOf('/');
  let start = slash + 1;
  while (path.charCodeAt(start) === 46 /* . */) start++;
  // A segment of dots alone is a dot segment (the literal reading keeps them), not a name with an extension.
  const first = start === path.length ? -1 : path.indexOf('.', start + 1);
  if (first === -1) return [];
  const last = path.lastIndexOf('.');
  return last === first ? [path.slice(0, first)] : [path.slice(0, first), path.slice(0, last)];
}

/** `readings` with each one's extension-less forms added after them, each reading once. */
function withExtensionReadings(readings: string[]): string[] {
  const out = [...readings];
  for (const r of readings) for (const e of withoutExtension(r)) if (!out.includes(e)) out.push(e);
  return out;
}

/**
 * What ends a path for a parser that reads decoded text again: the query's `?` and the fragment's `#` (URL parsers),
 * NUL (C strings), and the blanks and line breaks that end a request line (a forwarded `%20HTTP/1.1%0d%0a` starts
 * a request of its own).
 */
const TERMINATOR = /[?#\0\t\n\r ]/;
const ESCAPED_OR_WIDE = /[%\u0080-\uffff]/;

/**
 * The readings of the part of `received` before the first terminator that some layer of decoding reveals (a raw
 * `?` is the query, cut already; a raw `#` the WHATWG and router readings cut), each such part folded in full;
 * empty when no layer reveals one, null when a part is ambiguous. Each part is shorter than the text it comes from,
 * so the recursion ends.
 */
function terminatedReadings(received: string): string[] | null {
  const out: string[] = [];
  let text = received;
  for (let layer = 0; layer <= MAX_FOLD_ROUNDS && ESCAPED_OR_WIDE.test(text); layer++) {
    const decoded = decodeEscapes(text).normalize('NFKC');
    if (decoded === text) break;
    const at = decoded.search(TERMINATOR);
    if (at !== -1) {
      const part = pathReadings(decoded.slice(0, at));
      if (part === null) return null;
      for (const r of part) if (!out.includes(r)) out.push(r);
      // The part is folded in full (its own deeper layers included); the rest of the text can hide no other prefix.
      return out;
    }
    text = decoded;
  }
  return out;
}

/**
 * Every distinct reading of `target` (decoding first), or null when one does not settle: such a path is
 * ambiguous, and every rule applies to it. An already folded path is its only reading, with its extension-less forms.
 */
export function pathReadings(target: string): string[] | null {
  const received = receivedPath(target);
  if (isFolded(received)) return withExtensionReadings([received]);
  const lower = foldedLowerCase(received);
  if (lower !== null) return withExtensionReadings([lower]);
  const decoding = foldPath(received);
  if (decoding === null) return null;
  const path = originForm(received);
  const hash = path.indexOf('#');
  const raw = (hash === -1 ? path : path.slice(0, hash)).replace(/\\/g, '/');
  const literal: string[] = [];
  for (const segment of raw.split('/')) {
    const folded = foldSegment(segment);
    if (folded === null) return null;
    literal.push(folded);
  }
  // The slashes and the host that WHATWG URL reads from a leading `//host`, as segments of `raw.split('/')`.
  const authority = AUTHORITY.exec(raw);
  const hostSegments = authority ? authority[0].split('/').length : 0;
  const whatwg = `/${resolveDots(literal.slice(hostSegments)).join('/')}`;
  const router = `/${literal.filter((s) => s !== '').join('/')}`;
  const readings = [decoding];
  for (const r of [whatwg, router]) if (!readings.includes(r)) readings.push(r);
  const terminated = terminatedReadings(received);
  if (terminated === null) return null;
  const all = withExtensionReadings(readings);
  for (const r of terminated) if (!all.includes(r)) all.push(r);
  return all;
}
