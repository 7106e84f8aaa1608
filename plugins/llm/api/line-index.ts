/**
 * Lines of a stretch of text by their offsets, with no string made per line: a diff of long texts compares lines as
 * integer ids, and a string and a Map entry per line would cost it more than the search itself (about 0.3 µs each,
 * against a few ns per character here).
 */
export class LineIndex {
  /** starts[i] is where line i begins; starts[count] is one past the end of the last line (where its '\n' would be + 1). */
  private readonly starts: Int32Array;

  /** The lines of text[from, to), `to` being the end of the last line; `empty` for a stretch of no lines at all. */
  constructor(readonly text: string, from: number, to: number, empty = false) {
    if (empty) { this.starts = new Int32Array([from]); return; }
    let n = 1;
    for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
    this.starts = new Int32Array(n + 1);
    this.starts[0] = from;
    let line = 1;
    for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) this.starts[line++] = i + 1;
    this.starts[n] = to + 1;
  }

  get count(): number { return this.starts.length - 1; }

  line(i: number): string { return this.text.slice(this.starts[i], this.starts[i + 1] - 1); }

  /** FNV-1a of line i's characters (UTF-16 code units). */
  hash(i: number): number {
    const { text } = this;
    let h = 0x811c9dc5 | 0;
    for (let c = this.starts[i], end = this.starts[i + 1] - 1; c < end; c++) h = Math.imul(h ^ text.charCodeAt(c), 16777619);
    return h;
  }

  /** Whether line i here holds the same characters as line j of `other`. */
  same(i: number, other: LineIndex, j: number): boolean {
    const a = this.starts[i];
    const b = other.starts[j];
    const length = this.starts[i + 1] - 1 - a;
    if (other.starts[j + 1] - 1 - b !== length) return false;
    const x = this.text;
    const y = other.text;
    for (let c = 0; c < length; c++) if (x.charCodeAt(a + c) !== y.charCodeAt(b + c)) return false;
    return true;
  }
}

/**
 * Lines [aFrom, aTo) of `a` and [bFrom, bTo) of `b` as integer ids, equal lines with equal ids: an open-addressing
 * table of the lines' hashes, each hit confirmed by comparing characters (a collision never makes two lines equal).
 */
export function internLines(a: LineIndex, aFrom: number, aTo: number, b: LineIndex, bFrom: number, bTo: number): [Int32Array, Int32Array] {
  const total = aTo - aFrom + bTo - bFrom;
  let size = 16;
  while (size < total * 2) size *= 2;
  const mask = size - 1;
  /** id + 1 of the line in each slot; 0 for an empty slot. */
  const slots = new Int32Array(size);
  const hashes = new Int32Array(total);
  /** Where each id's first line is: in `b` (1) or `a` (0), and its number there. */
  const inB = new Uint8Array(total);
  const ofLine = new Int32Array(total);
  let ids = 0;
  const idsOf = (index: LineIndex, side: number, from: number, to: number) => {
    const out = new Int32Array(to - from);
    for (let i = from; i < to; i++) {
      const h = index.hash(i);
      for (let slot = h & mask; ; slot = (slot + 1) & mask) {
        const held = slots[slot] - 1;
        if (held === -1) {
          slots[slot] = ids + 1;
          hashes[ids] = h;
          inB[ids] = side;
          ofLine[ids] = i;
          out[i - from] = ids++;
          break;
        }
        if (hashes[held] === h && index.same(i, inB[held] ? b : a, ofLine[held])) { out[i - from] = held; break; }
      }
    }
    return out;
  };
  return [idsOf(a, 0, aFrom, aTo), idsOf(b, 1, bFrom, bTo)];
}
