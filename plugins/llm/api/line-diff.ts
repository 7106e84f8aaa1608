/**
 * The shortest edit script between two line lists, in linear space: Myers' divide and conquer on the middle snake
 * ("An O(ND) Difference Algorithm and Its Variations", 1986, section 4b). Memory is two frontier arrays of
 * O(maxEdits) integers and the change list, whatever the lengths; time is O((N+M)·D) at worst, and is cut off by two
 * bounds: the edit distance D (lines removed plus lines added) and a count of work units (one per diagonal visited,
 * one per matching line followed), so that no call runs longer than its budget allows.
 */

/** One change: lines [aStart, aEnd) of `a` replaced by lines [bStart, bEnd) of `b` (either range may be empty). */
export interface Change { aStart: number; aEnd: number; bStart: number; bEnd: number }

export interface LineDiffLimits {
  /** Most lines removed plus lines added; past it the texts are too different to show. */
  maxEdits: number;
  /** Work units (a diagonal visited, a matching line followed, a line hashed) before giving up. */
  maxWork: number;
}

export type LineDiff =
  | { ok: true; changes: Change[]; edits: number; work: number }
  | { ok: false; reason: 'edits' | 'work'; work: number };

/** Thrown inside the recursion when the work budget is spent; caught by `lineDiff`. */
class OverBudget extends Error {}

class Differ {
  work = 0;
  readonly changes: Change[] = [];
  /** Forward and reverse frontiers, indexed by diagonal k + offset; shared by every step of the recursion. */
  private readonly vf: Int32Array;
  private readonly vb: Int32Array;
  private readonly offset: number;

  constructor(private readonly a: Int32Array, private readonly b: Int32Array, private readonly maxHalf: number, private readonly maxWork: number) {
    this.offset = maxHalf + 2;
    this.vf = new Int32Array(2 * this.offset + 1);
    this.vb = new Int32Array(2 * this.offset + 1);
  }

  private spend(units: number): void {
    this.work += units;
    if (this.work > this.maxWork) throw new OverBudget();
  }

  private change(aStart: number, aEnd: number, bStart: number, bEnd: number): void {
    const last = this.changes[this.changes.length - 1];
    // Changes that touch (no kept line between them) read as one: removals first, then additions, as diff -u prints.
    if (last && last.aEnd === aStart && last.bEnd === bStart) { last.aEnd = aEnd; last.bEnd = bEnd; return; }
    this.changes.push({ aStart, aEnd, bStart, bEnd });
  }

  /**
   * A point on an optimal path of a[aLo, aHi) against b[bLo, bHi) (both non-empty, differing at both ends) that splits
   * it into two parts of fewer edits each, from where the forward and the reverse searches meet (Myers' middle snake,
   * with git's xdiff bookkeeping: diagonals are absolute, k = x − y, and kept inside the box). Null when the searches
   * have not met after `maxHalf` steps each: more than about 2·maxHalf edits.
   */
  private split(aLo: number, aHi: number, bLo: number, bHi: number): { x: number; y: number } | null {
    const { a, b, vf, vb, offset } = this;
    const dMin = aLo - bHi;
    const dMax = aHi - bLo;
    const fMid = aLo - bLo;
    const bMid = aHi - bHi;
    const odd = ((fMid - bMid) & 1) !== 0;
    // vf[k − fMid + offset] is the furthest x on diagonal k of the forward search; vb[k − bMid + offset] the least x
    // of the reverse one. Neither strays more than maxHalf + 1 diagonals from its middle.
    const f = offset - fMid;
    const r = offset - bMid;
    let fLo = fMid;
    let fHi = fMid;
    let bLoK = bMid;
    let bHiK = bMid;
    vf[fMid + f] = aLo;
    vb[bMid + r] = aHi;
    for (let step = 1; step <= this.maxHalf; step++) {
      let followed = 0;
      if (fLo > dMin) vf[--fLo - 1 + f] = -1; else ++fLo;
      if (fHi < dMax) vf[++fHi + 1 + f] = -1; else --fHi;
      for (let k = fHi; k >= fLo; k -= 2) {
        let x = vf[k - 1 + f] >= vf[k + 1 + f] ? vf[k - 1 + f] + 1 : vf[k + 1 + f];
        const x0 = x;
        let y = x - k;
        while (x < aHi && y < bHi && a[x] === b[y]) { x++; y++; }
        followed += x - x0;
        vf[k + f] = x;
        if (odd && bLoK <= k && k <= bHiK && vb[k + r] <= x) return { x, y };
      }
      if (bLoK > dMin) vb[--bLoK - 1 + r] = 0x7fffffff; else ++bLoK;
      if (bHiK < dMax) vb[++bHiK + 1 + r] = 0x7fffffff; else --bHiK;
      for (let k = bHiK; k >= bLoK; k -= 2) {
        let x = vb[k - 1 + r] < vb[k + 1 + r] ? vb[k - 1 + r] : vb[k + 1 + r] - 1;
        const x0 = x;
        let y = x - k;
        while (x > aLo && y > bLo && a[x - 1] === b[y - 1]) { x--; y--; }
        followed += x0 - x;
        vb[k + r] = x;
        if (!odd && fLo <= k && k <= fHi && x <= vf[k + f]) return { x, y };
      }
      // Diagonals visited (every other one in each range) and matching lines followed.
      this.spend(((fHi - fLo) >> 1) + ((bHiK - bLoK) >> 1) + 2 + followed);
    }
    return null;
  }

  /** Appends the changes of a[aLo, aHi) against b[bLo, bHi), in order; false when the distance passes the bound. */
  diff(aLo: number, aHi: number, bLo: number, bHi: number): boolean {
    const { a, b } = this;
    const span = aHi - aLo;
    while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) { aLo++; bLo++; }
    while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) { aHi--; bHi--; }
    this.spend(1 + span - (aHi - aLo));
    // One side empty: this covers every distance of 0 or 1, so the split below always makes two smaller parts.
    if (aLo === aHi || bLo === bHi) {
      if (aLo < aHi || bLo < bHi) this.change(aLo, aHi, bLo, bHi);
      return true;
    }
    const at = this.split(aLo, aHi, bLo, bHi);
    if (at === null) return false;
    // Both parts have fewer edits than the whole (D >= 2 here), so the recursion ends, about log2(D) deep.
    return this.diff(aLo, at.x, bLo, at.y) && this.diff(at.x, aHi, at.y, bHi);
  }
}

/**
 * The changes from `a` to `b` (lines as integer ids: equal lines, equal ids), in order and minimal in number of
 * lines, or why not: more than `maxEdits` edits, or more than `maxWork` units of work.
 */
export function lineDiff(a: Int32Array, b: Int32Array, limits: LineDiffLimits, workSoFar = 0): LineDiff {
  // The distance is at least the difference in length: no search needed to tell that it is over the bound.
  if (Math.abs(a.length - b.length) > limits.maxEdits) return { ok: false, reason: 'edits', work: workSoFar };
  const differ = new Differ(a, b, Math.ceil(limits.maxEdits / 2), limits.maxWork);
  differ.work = workSoFar;
  try {
    if (!differ.diff(0, a.length, 0, b.length)) return { ok: false, reason: 'edits', work: differ.work };
  } catch (err) {
    if (err instanceof OverBudget) return { ok: false, reason: 'work', work: differ.work };
    throw err;
  }
  let edits = 0;
  for (const c of differ.changes) edits += c.aEnd - c.aStart + c.bEnd - c.bStart;
  if (edits > limits.maxEdits) return { ok: false, reason: 'edits', work: differ.work };
  return { ok: true, changes: differ.changes, edits, work: differ.work };
}
