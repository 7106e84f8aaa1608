import { REDACTED, type CompiledJsonPath } from './compile-json-path.js';
import { ANY, automatonOf, DEEP, type PathAutomaton } from './json-path-automaton.js';

/**
 * JSON governed as text: one pass over a body that validates it exactly as `JSON.parse` would, replaces the values
 * that redaction paths match with the marker, and reads the number a meter path points at. The result is the
 * body's own text with only the redacted values cut out, so a body is never parsed into objects and serialised
 * again on the telemetry lane.
 *
 * Same semantics as `redactJsonPaths` and `readJsonPathNumber` on the parsed value (tests compare them on generated
 * documents), with these differences, both on the safe side:
 * - a key that occurs twice in one object is redacted at every occurrence (`JSON.parse` keeps only the last);
 * - nesting deeper than `MAX_JSON_DEPTH` is refused (`too-deep`) instead of exhausting the stack later.
 */

export const MAX_JSON_DEPTH = 256;

export interface JsonTextPlan {
  /** Values these paths match become the marker. */
  readonly redact: readonly CompiledJsonPath[];
  /** The first finite number ≥ 0 this path matches, in document order, outside redacted values (`meter.tokens`). */
  readonly read: CompiledJsonPath | null;
  /**
   * Told about every value's place and type in the same pass, before redaction (field observations): the scan
   * then walks the whole document instead of skipping what no path reaches. `root` is the observer's node of `$`.
   */
  readonly observe?: { readonly observer: JsonObserver; readonly root: ObservedNode };
}

/** A node of a `JsonObserver`'s own tree of paths: opaque to the scan. */
export type ObservedNode = object;

/**
 * What a scan reports of a document's shape, never a value: the path of each value and its type, and a string's
 * place in the text (for its format to be recognised). Node methods answer null for a place not to follow (a cap
 * was reached): nothing below it is reported.
 */
export interface JsonObserver {
  /**
   * The node of a member of the object at `parent`, whose key is `text[from, to)` as written, or `decoded` when it
   * was written with escapes (else null): the key is never sliced out unless the observer needs it.
   */
  key(parent: ObservedNode, text: string, from: number, to: number, decoded: string | null): ObservedNode | null;
  /** The node of every element of the array at `parent`. */
  item(parent: ObservedNode): ObservedNode | null;
  /** A value at `node` of kind `kind` (value-format.ts indexes); `redacted`: a redaction path replaced it. */
  value(node: ObservedNode, kind: number, redacted: boolean): void;
  /** A string at `node`: its characters are `text[from, to)`, with escapes when `escaped`. */
  string(node: ObservedNode, text: string, from: number, to: number, escaped: boolean, redacted: boolean): void;
}

// Kinds as the observer counts them (gateway/fields/value-format.ts holds the names in this order; 0 is a
// string, which is reported through `string`).
const K_INTEGER = 1;
const K_NUMBER = 2;
const K_BOOLEAN = 3;
const K_NULL = 4;
const K_OBJECT = 5;
const K_ARRAY = 6;

export type JsonTextResult =
  | { readonly ok: true; readonly text: string; readonly redactions: number; readonly number: number | null }
  | { readonly ok: false; readonly reason: 'malformed' | 'too-deep' };

const NOTHING: JsonTextPlan = { redact: [], read: null };
const MARKER_JSON = JSON.stringify(REDACTED);

/** Validates `text` as one JSON value and applies `plan` to it. */
export function governJsonText(text: string, plan: JsonTextPlan = NOTHING): JsonTextResult {
  const scan = new Scan(text, plan);
  try {
    scan.document();
  } catch (err) {
    if (err === MALFORMED) return { ok: false, reason: 'malformed' };
    if (err === TOO_DEEP) return { ok: false, reason: 'too-deep' };
    throw err;
  }
  return { ok: true, text: scan.output(), redactions: scan.redactions, number: scan.number };
}

// Thrown (not allocated per failure) to unwind the recursive descent.
const MALFORMED = Symbol('malformed');
const TOO_DEEP = Symbol('too deep');

const QUOTE = 34;
const BACKSLASH = 92;

class Scan {
  private pos = 0;
  /** Output before `copiedTo`, once a value was redacted; the rest is still the input's. */
  private out = '';
  private copiedTo = 0;
  redactions = 0;
  number: number | null = null;

  private readonly paths: PathAutomaton[];
  private readonly redactCount: number;
  /** Path states per nesting level: `states[level * width + p]` is path p's state mask at the current node. */
  private readonly states: Int32Array;
  private readonly width: number;
  private readonly observer: JsonObserver | null;
  private readonly root: ObservedNode | null;

  constructor(private readonly text: string, plan: JsonTextPlan) {
    this.observer = plan.observe?.observer ?? null;
    this.root = plan.observe?.root ?? null;
    this.paths = plan.redact.map(automatonOf);
    this.redactCount = this.paths.length;
    if (plan.read) this.paths.push(automatonOf(plan.read));
    this.width = this.paths.length;
    this.states = statesFor(this.width);
  }

  document(): void {
    let live = false;
    for (let p = 0; p < this.width; p++) {
      const m = this.paths[p].start;
      this.states[p] = m;
      if (m !== 0) live = true;
    }
    this.skipWhitespace();
    if (live) this.value(0, true, this.root);
    else if (this.root !== null) this.observeValue(0, this.root);
    else this.skipValue(0);
    this.skipWhitespace();
    if (this.pos !== this.text.length) throw MALFORMED;
  }

  output(): string {
    return this.redactions === 0 ? this.text : this.out + this.text.slice(this.copiedTo);
  }

  /**
   * A value some path may still match, at `level` (its states are set); `matched`: some path may end here. `node`
   * is the observer's node for it, or null when it is not observed.
   */
  private value(level: number, matched: boolean, node: ObservedNode | null): void {
    const base = level * this.width;
    let wantNumber = false;
    for (let p = 0; matched && p < this.width; p++) {
      if (this.states[base + p] & this.paths[p].matched) {
        if (p < this.redactCount) {
          const start = this.pos;
          this.skipValue(level);
          if (node !== null) this.observeRedacted(node, start);
          this.out += this.text.slice(this.copiedTo, start) + MARKER_JSON;
          this.copiedTo = this.pos;
          this.redactions++;
          return;
        }
        wantNumber = true;
      }
    }
    const c = this.at(this.pos);
    if (c === 123 /* { */) this.object(level, node);
    else if (c === 91 /* [ */) this.array(level, node);
    else if (wantNumber && this.number === null && (c === 45 /* - */ || (c >= 48 && c <= 57))) {
      const start = this.pos;
      this.skipNumber();
      if (node !== null) this.observer!.value(node, this.numberKind(start), false);
      const n = Number(this.text.slice(start, this.pos));
      if (Number.isFinite(n) && n >= 0) this.number = n;
    } else if (node !== null) this.observeValue(level, node);
    else this.skipValue(level);
  }

  private object(level: number, node: ObservedNode | null): void {
    if (level >= MAX_JSON_DEPTH) throw TOO_DEEP;
    const text = this.text;
    if (node !== null) this.observer!.value(node, K_OBJECT, false);
    this.pos++;
    this.skipWhitespace();
    if (this.at(this.pos) === 125 /* } */) { this.pos++; return; }
    for (;;) {
      if (this.at(this.pos) !== QUOTE) throw MALFORMED;
      const keyStart = this.pos;
      // Keys are compared where they stand in the text; only a key written with escapes is decoded.
      const key = this.skipString() ? JSON.parse(text.slice(keyStart, this.pos)) as string : null;
      const keyEnd = this.pos - 1;
      this.skipWhitespace();
      if (this.at(this.pos) !== 58 /* : */) throw MALFORMED;
      this.pos++;
      this.skipWhitespace();
      const childNode = node === null ? null : this.observer!.key(node, text, keyStart + 1, keyEnd, key);
      this.child(level, key, keyStart + 1, keyEnd, childNode);
      this.skipWhitespace();
      const c = this.at(this.pos++);
      if (c === 125 /* } */) return;
      if (c !== 44 /* , */) throw MALFORMED;
      this.skipWhitespace();
    }
  }

  private array(level: number, node: ObservedNode | null): void {
    if (level >= MAX_JSON_DEPTH) throw TOO_DEEP;
    let item: ObservedNode | null = null;
    if (node !== null) {
      this.observer!.value(node, K_ARRAY, false);
      item = this.observer!.item(node);
    }
    this.pos++;
    this.skipWhitespace();
    if (this.at(this.pos) === 93 /* ] */) { this.pos++; return; }
    for (let index = 0; ; index++) {
      this.child(level, null, -1, index, item);
      this.skipWhitespace();
      const c = this.at(this.pos++);
      if (c === 93 /* ] */) return;
      if (c !== 44 /* , */) throw MALFORMED;
      this.skipWhitespace();
    }
  }

  /**
   * The child of the container at `level`: walked when a path may match inside it, else only validated. An object's
   * member is named by `key` when its key was decoded, else by the key's raw text at [`from`, `to`); an array's
   * element has `from` -1 and its index in `to`. `node` is the observer's node of the child, or null.
   */
  private child(level: number, key: string | null, from: number, to: number, node: ObservedNode | null): void {
    const base = level * this.width;
    const next = base + this.width;
    let live = false;
    let matched = false;
    for (let p = 0; p < this.width; p++) {
      const m = this.states[base + p];
      if (m === 0) {
        this.states[next + p] = 0;
        continue;
      }
      const path = this.paths[p];
      const c = this.step(path, m, key, from, to);
      this.states[next + p] = c;
      if (c !== 0) live = true;
      if (c & path.matched) matched = true;
    }
    if (live) this.value(level + 1, matched, node);
    else if (node !== null) this.observeValue(level + 1, node);
    else this.skipValue(level + 1);
  }

  /**
   * `skipValue` that tells the observer about the value and everything inside it. Kept apart from `skipValue`, so
   * a scan without an observer runs the code it always ran.
   */
  private observeValue(level: number, node: ObservedNode): void {
    const observer = this.observer!;
    const text = this.text;
    const c = this.at(this.pos);
    if (c === QUOTE) {
      const start = this.pos;
      const escaped = this.skipString();
      observer.string(node, text, start + 1, this.pos - 1, escaped, false);
      return;
    }
    if (c === 123 /* { */) {
      if (level >= MAX_JSON_DEPTH) throw TOO_DEEP;
      observer.value(node, K_OBJECT, false);
      this.pos++;
      this.skipWhitespace();
      if (this.at(this.pos) === 125 /* } */) { this.pos++; return; }
      for (;;) {
        if (this.at(this.pos) !== QUOTE) throw MALFORMED;
        const keyStart = this.pos;
        const key = this.skipString() ? JSON.parse(text.slice(keyStart, this.pos)) as string : null;
        const keyEnd = this.pos - 1;
        this.skipWhitespace();
        if (this.at(this.pos) !== 58 /* : */) throw MALFORMED;
        this.pos++;
        this.skipWhitespace();
        const child = observer.key(node, text, keyStart + 1, keyEnd, key);
        if (child !== null) this.observeValue(level + 1, child);
        else this.skipValue(level + 1);
        this.skipWhitespace();
        const d = this.at(this.pos++);
        if (d === 125 /* } */) return;
        if (d !== 44 /* , */) throw MALFORMED;
        this.skipWhitespace();
      }
    }
    if (c === 91 /* [ */) {
      if (level >= MAX_JSON_DEPTH) throw TOO_DEEP;
      observer.value(node, K_ARRAY, false);
      const item = observer.item(node);
      this.pos++;
      this.skipWhitespace();
      if (this.at(this.pos) === 93 /* ] */) { this.pos++; return; }
      for (;;) {
        if (item !== null) this.observeValue(level + 1, item);
        else this.skipValue(level + 1);
        this.skipWhitespace();
        const d = this.at(this.pos++);
        if (d === 93 /* ] */) return;
        if (d !== 44 /* , */) throw MALFORMED;
        this.skipWhitespace();
      }
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = this.pos;
      this.skipNumber();
      observer.value(node, this.numberKind(start), false);
      return;
    }
    this.skipValue(level);
    observer.value(node, c === 110 /* n */ ? K_NULL : K_BOOLEAN, false);
  }

  /** Tells the observer of the value at [`start`, pos) that a redaction path replaced: its type only. */
  private observeRedacted(node: ObservedNode, start: number): void {
    const observer = this.observer!;
    const c = this.text.charCodeAt(start);
    if (c === QUOTE) {
      const inner = this.text.slice(start + 1, this.pos - 1);
      observer.string(node, this.text, start + 1, this.pos - 1, inner.includes('\\'), true);
    } else {
      const kind = c === 123 ? K_OBJECT : c === 91 ? K_ARRAY : c === 110 ? K_NULL : c === 116 || c === 102 ? K_BOOLEAN : this.numberKind(start);
      observer.value(node, kind, true);
    }
  }

  /** `integer` for a number token at [`start`, pos) written without fraction or exponent, else `number`. */
  private numberKind(start: number): number {
    for (let i = start; i < this.pos; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 46 || c === 101 || c === 69) return K_NUMBER;
    }
    return K_INTEGER;
  }

  /** A path's states at a child, from its (closed) states at the parent; the child is named as in `child`. */
  private step(path: PathAutomaton, mask: number, key: string | null, from: number, to: number): number {
    let next = 0;
    for (let i = 0; i < path.kinds.length; i++) {
      const bit = 1 << i;
      if (!(mask & bit)) continue;
      const kind = path.kinds[i];
      if (kind === DEEP) next |= bit;
      else if (kind === ANY) next |= bit << 1;
      else if (from < 0 ? path.indexes[i] === to : key === null ? this.keyIs(path.names[i], from, to) : path.names[i] === key) {
        next |= bit << 1;
      }
    }
    // A `**` may match zero levels (never two in a row in an automaton, so one shift closes the set).
    return next | ((next & path.deep) << 1);
  }

  private keyIs(name: string, from: number, to: number): boolean {
    return name.length === to - from && this.text.startsWith(name, from);
  }

  /** Validates one value that no path can match inside, at nesting `level`. */
  private skipValue(level: number): void {
    const c = this.at(this.pos);
    if (c === QUOTE) { this.skipString(); return; }
    if (c === 123 /* { */ || c === 91 /* [ */) {
      if (level >= MAX_JSON_DEPTH) throw TOO_DEEP;
      const close = c === 123 ? 125 : 93;
      this.pos++;
      this.skipWhitespace();
      if (this.at(this.pos) === close) { this.pos++; return; }
      for (;;) {
        if (close === 125) {
          if (this.at(this.pos) !== QUOTE) throw MALFORMED;
          this.skipString();
          this.skipWhitespace();
          if (this.at(this.pos) !== 58 /* : */) throw MALFORMED;
          this.pos++;
          this.skipWhitespace();
        }
        this.skipValue(level + 1);
        this.skipWhitespace();
        const d = this.at(this.pos++);
        if (d === close) return;
        if (d !== 44 /* , */) throw MALFORMED;
        this.skipWhitespace();
      }
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) { this.skipNumber(); return; }
    if (c === 116 /* t */) this.literal('true');
    else if (c === 102 /* f */) this.literal('false');
    else if (c === 110 /* n */) this.literal('null');
    else throw MALFORMED;
  }

  /** Skips a string token; true when it holds an escape (its value then differs from its raw text). */
  private skipString(): boolean {
    const text = this.text;
    const end = text.length;
    let i = this.pos + 1;
    let escaped = false;
    for (;;) {
      if (i >= end) throw MALFORMED;
      const c = text.charCodeAt(i++);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        const e = this.at(i++);
        if (e === 117 /* u */) {
          for (let k = 0; k < 4; k++) if (!isHexDigit(this.at(i++))) throw MALFORMED;
        } else if (!(e === QUOTE || e === BACKSLASH || e === 47 /* / */ || e === 98 || e === 102 || e === 110 || e === 114 || e === 116)) {
          throw MALFORMED; // \b \f \n \r \t are 98 102 110 114 116
        }
      } else if (c < 0x20) throw MALFORMED;
    }
    this.pos = i;
    return escaped;
  }

  /** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` */
  private skipNumber(): void {
    const text = this.text;
    let i = this.pos;
    if (this.at(i) === 45) i++;
    const first = this.at(i);
    if (first === 48) i++;
    else if (first >= 49 && first <= 57) i = digits(text, i);
    else throw MALFORMED;
    if (this.at(i) === 46 /* . */) {
      const j = digits(text, i + 1);
      if (j === i + 1) throw MALFORMED;
      i = j;
    }
    const e = this.at(i);
    if (e === 101 || e === 69 /* e E */) {
      i++;
      const sign = this.at(i);
      if (sign === 43 || sign === 45) i++;
      const j = digits(text, i);
      if (j === i) throw MALFORMED;
      i = j;
    }
    this.pos = i;
  }

  private literal(word: string): void {
    if (!this.text.startsWith(word, this.pos)) throw MALFORMED;
    this.pos += word.length;
  }

  // Nothing here reads past the text's end, even on malformed input: after one out-of-range `charCodeAt` (which
  // gives NaN), V8 compiles that call site as a call to the builtin instead of a load, for good. A scan of the
  // benchmark's bodies cost 29 % more once the worker had met a few cut documents.
  private at(i: number): number {
    return i < this.text.length ? this.text.charCodeAt(i) : -1;
  }

  private skipWhitespace(): void {
    const text = this.text;
    const end = text.length;
    let i = this.pos;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
    this.pos = i;
  }
}

// Scans are synchronous and never nest, so one scratch array serves them all.
let scratch = new Int32Array(0);
function statesFor(width: number): Int32Array {
  const size = (MAX_JSON_DEPTH + 2) * width;
  if (scratch.length < size) scratch = new Int32Array(size);
  return scratch;
}

function digits(text: string, i: number): number {
  for (const end = text.length; i < end; ) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) i++;
    else return i;
  }
  return i;
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
