/**
 * One pass over the bytes of a JSON batch body, `{ "<key>": [ element, … ] }`, before anything is parsed: how deep
 * it nests, whether it is the envelope at all, where each element lies, and how many keys and array elements each
 * holds. Parsing costs by keys more than by bytes (an object of 400,000 keys takes V8 seconds to build, one of
 * integer-like keys most of all), so an element past its bound is cut out of the text before `JSON.parse` ever sees
 * it, and a body that is not the envelope is refused unparsed. Strings are skipped byte by byte (a backslash skips
 * the byte after it), so brackets and colons inside them count for nothing.
 */

export interface ScannedElement {
  /** Byte range of the element's text in the body: [start, end). */
  start: number;
  end: number;
  /** Object keys plus array elements inside it, at every level; counting stops just past the bound. */
  keys: number;
  /**
   * Bytes of its strings (keys included) as written, escapes and all: never fewer than the UTF-8 bytes they decode
   * to, so an element within a byte bound by this count is within it decoded too.
   */
  bytes: number;
}

export type EnvelopeProblem =
  | { kind: 'too-deep' }
  /** The body's top level is not an object: nothing to parse. */
  | { kind: 'not-object' }
  /** The array's key is there with something other than an array. */
  | { kind: 'not-array' }
  /** The array's key appears twice (JSON.parse would keep the last, silently). */
  | { kind: 'twice' }
  | { kind: 'unknown-key'; key: string }
  /** A top-level key is not UTF-8. */
  | { kind: 'not-utf8' };

export interface EnvelopeScan {
  problem?: EnvelopeProblem;
  /** The elements of the array, in order; empty when there is a problem, or the body has no such key. */
  elements: ScannedElement[];
}

export interface ScanOptions {
  /** Nesting of arrays and objects the body may have. */
  maxDepth: number;
  /** An element's keys and array elements: counting stops past this. */
  maxKeys: number;
  /** Keys besides the array's that the envelope may have (Langfuse's `metadata`); any other is a problem. */
  otherKeys?: readonly string[];
}

const OBJECT = 1;
const ARRAY = 2;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Bytes scanned between looks at the time slice: a 5 MB body is scanned in about 80 steps. */
const STEP_BYTES = 65_536;

/**
 * Scans `bytes` for the envelope whose array is under `key`. Not a validator: a body with a syntax error scans to
 * something, and `JSON.parse` reports the error when it runs on what is left. `slice` is awaited every
 * `STEP_BYTES` (a lane thread's time slice, time-slice.ts), so a long body takes turns with other requests.
 */
export async function scanEnvelope(bytes: Uint8Array, key: string, options: ScanOptions, slice?: () => Promise<void> | undefined): Promise<EnvelopeScan> {
  const n = bytes.length;
  const containers = new Uint8Array(options.maxDepth + 2);
  /** Per depth: an array opened whose first element has not begun yet. */
  const awaitingFirst = new Uint8Array(options.maxDepth + 2);
  const elements: ScannedElement[] = [];
  const refuse = (problem: EnvelopeProblem): EnvelopeScan => ({ problem, elements: [] });
  let depth = 0;
  let i = 0;
  while (i < n && isSpace(bytes[i])) i++;
  if (i >= n || bytes[i] !== 0x7b) return refuse({ kind: 'not-object' });

  let expectKey = false;
  /** The top-level key whose value comes next (set after its colon). */
  let valueOf: string | null = null;
  let seen = false;
  let inTarget = false;
  let current: ScannedElement | null = null;
  let nextLook = i + STEP_BYTES;

  for (; i < n; i++) {
    if (slice && i >= nextLook) {
      nextLook = i + STEP_BYTES;
      await slice();
    }
    const b = bytes[i];
    if (b === QUOTE) {
      const start = i;
      for (i++; i < n && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
      if (depth === 1 && !expectKey && valueOf === key) return refuse({ kind: 'not-array' });
      if (depth === 1 && expectKey) {
        const name = decodeKey(bytes.subarray(start, i + 1));
        if (name === null) return refuse({ kind: 'not-utf8' });
        if (name !== key && !(options.otherKeys ?? []).includes(name)) return refuse({ kind: 'unknown-key', key: name });
        if (name === key) {
          if (seen) return refuse({ kind: 'twice' });
          seen = true;
        }
        valueOf = name;
        expectKey = false;
        continue;
      }
      if (depth === 2 && inTarget && current === null) current = { start, end: n, keys: 0, bytes: 0 };
      else if (depth >= 2 && awaitingFirst[depth]) countElement();
      if (current) current.bytes += i - start - 1;
      if (depth === 2 && inTarget && awaitingFirst[2]) awaitingFirst[2] = 0;
      continue;
    }
    if (isSpace(b)) continue;
    if (b === 0x7b || b === 0x5b) {
      if (depth === 1 && valueOf === key && b !== 0x5b) return refuse({ kind: 'not-array' });
      if (depth >= 2 && awaitingFirst[depth]) countElement();
      if (depth === 2 && inTarget) {
        awaitingFirst[2] = 0;
        current ??= { start: i, end: n, keys: 0, bytes: 0 };
      }
      if (++depth > options.maxDepth) return refuse({ kind: 'too-deep' });
      containers[depth] = b === 0x7b ? OBJECT : ARRAY;
      awaitingFirst[depth] = b === 0x5b ? 1 : 0;
      if (depth === 2 && valueOf === key) inTarget = true;
      if (depth === 1) expectKey = true;
      continue;
    }
    if (b === 0x7d || b === 0x5d) {
      if (depth === 2 && inTarget) {
        if (current) { current.end = i; elements.push(current); current = null; }
        inTarget = false;
      }
      awaitingFirst[depth] = 0;
      depth--;
      if (depth === 1) valueOf = null;
      continue;
    }
    if (b === 0x3a) { // ':' an object's key, inside an element
      if (current) current.keys++;
      continue;
    }
    if (b === 0x2c) { // ','
      if (depth === 1) { expectKey = true; valueOf = null; continue; }
      if (depth === 2 && inTarget) {
        if (current) { current.end = i; elements.push(current); current = null; }
        continue;
      }
      if (current && containers[depth] === ARRAY) current.keys++;
      continue;
    }
    // The first byte of a number, true, false or null.
    if (depth === 1 && valueOf === key) return refuse({ kind: 'not-array' });
    if (depth === 2 && inTarget) {
      awaitingFirst[2] = 0;
      current ??= { start: i, end: n, keys: 0, bytes: 0 };
    } else if (depth >= 2 && awaitingFirst[depth]) countElement();
  }
  if (current) elements.push(current);
  return { elements };

  /** The first element of the array open at `depth` has begun. */
  function countElement(): void {
    awaitingFirst[depth] = 0;
    if (current) current.keys++;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A top-level key's name, escapes decoded; null when it is not UTF-8; its raw text when it is not a JSON string. */
function decodeKey(quoted: Uint8Array): string | null {
  let text: string;
  try {
    text = utf8.decode(quoted);
  } catch {
    return null;
  }
  try {
    return JSON.parse(text) as string;
  } catch {
    return text;
  }
}

/**
 * The body with each element of `cut` (indexes into `scan.elements`) replaced by `null`: the text `JSON.parse`
 * gets, with the elements past their bound never built.
 */
export function cutElements(bytes: Uint8Array, elements: readonly ScannedElement[], cut: ReadonlySet<number>): Uint8Array {
  if (!cut.size) return bytes;
  const parts: Uint8Array[] = [];
  let at = 0;
  const NULL = new Uint8Array([0x6e, 0x75, 0x6c, 0x6c]);
  for (let e = 0; e < elements.length; e++) {
    if (!cut.has(e)) continue;
    parts.push(bytes.subarray(at, elements[e].start), NULL);
    at = elements[e].end;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}
