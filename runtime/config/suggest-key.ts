/**
 * Optimal string alignment distance (Damerau-Levenshtein restricted to adjacent transpositions): the number of
 * insertions, deletions, substitutions and swaps of neighbours that turn `a` into `b`. `feilds` → `fields` is 1.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rolling rows: the transposition step looks two rows back.
  let prev2 = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur[j] = d;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length];
}

/** `bodyLimit`, `Body-Limit` and `body_limit` all fold to `bodylimit`. */
const fold = (s: string): string => s.toLowerCase().replace(/[-_]/g, '');

/**
 * The candidate the user most likely meant by `written`, or undefined when none is close. Close means: equal when
 * case and `-`/`_` are ignored, or at most 2 edits away and fewer edits than half the longer word (so a one-letter
 * key does not "suggest" an unrelated two-letter one). Ties go to the earlier candidate (schema order).
 */
export function suggestKey(written: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const folded = fold(written);
  for (const candidate of candidates) {
    if (candidate === written) continue;
    let score: number;
    if (fold(candidate) === folded) score = 0;
    else {
      const d = editDistance(written, candidate);
      if (d > 2 || d >= Math.max(written.length, candidate.length) / 2) continue;
      score = d;
    }
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
