// The command palette's matcher: the query's characters in order, anywhere in the text, scored so that what a
// person meant comes first: matches at word starts (`go` → "Gateway Overview"), runs of consecutive characters,
// and a match at the very start; gaps cost a little.

export interface FuzzyMatch {
  score: number;
  /** Indexes in the text of the matched characters, for highlighting. */
  positions: number[];
}

const WORD_START = 8;
// More than a word start: a run that continues a match beats a jump to the next word.
const CONSECUTIVE = 9;
const FIRST_CHAR = 6;
const GAP = 0.15;
const MAX_TEXT = 256;

const isSeparator = (c: string): boolean => c === ' ' || c === '/' || c === '-' || c === '_' || c === '.' || c === ':' || c === '(' || c === ',';

/** How much a match of text[j] is worth: word starts (after a separator, or an upper-case letter after a lower) more. */
function bonusAt(text: string, j: number): number {
  if (j === 0) return WORD_START + FIRST_CHAR;
  const prev = text[j - 1];
  if (isSeparator(prev)) return WORD_START;
  const c = text[j];
  if (c !== c.toLowerCase() && prev === prev.toLowerCase() && prev !== prev.toUpperCase()) return WORD_START - 2;
  return 0;
}

/**
 * The best way `query` matches `text` as a subsequence, ignoring case and spaces in the query, or null when it does
 * not. O(query × text): each character's best score is kept per position, and a gap's cost is linear in its length,
 * so one running maximum per row replaces the search over every earlier position.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (q === '') return { score: 0, positions: [] };
  const t = text.slice(0, MAX_TEXT);
  const lower = t.toLowerCase();
  const n = q.length;
  const m = lower.length;
  if (n > m) return null;
  const NONE = -Infinity;
  let prev = new Float64Array(m).fill(NONE);
  const back: Int32Array[] = [];
  for (let i = 0; i < n; i++) {
    const row = new Float64Array(m).fill(NONE);
    const from = new Int32Array(m).fill(-1);
    // Best of prev[k] + GAP * k over k < j - 1 (a match followed by a gap), with where it came from.
    let runBest = NONE;
    let runAt = -1;
    for (let j = i; j < m; j++) {
      if (i > 0 && j >= 2 && prev[j - 2] !== NONE && prev[j - 2] + GAP * (j - 2) > runBest) {
        runBest = prev[j - 2] + GAP * (j - 2);
        runAt = j - 2;
      }
      if (lower[j] !== q[i]) continue;
      const gain = 1 + bonusAt(t, j);
      if (i === 0) {
        row[j] = gain - GAP * j * 0.5;
        continue;
      }
      const viaRun = prev[j - 1] !== NONE ? prev[j - 1] + gain + CONSECUTIVE : NONE;
      const viaGap = runBest !== NONE ? runBest - GAP * (j - 1) + gain : NONE;
      if (viaRun === NONE && viaGap === NONE) continue;
      if (viaRun >= viaGap) {
        row[j] = viaRun;
        from[j] = j - 1;
      } else {
        row[j] = viaGap;
        from[j] = runAt;
      }
    }
    back.push(from);
    prev = row;
  }
  let end = -1;
  let best = NONE;
  for (let j = 0; j < m; j++) if (prev[j] > best) { best = prev[j]; end = j; }
  if (end === -1) return null;
  const positions = new Array<number>(n);
  for (let i = n - 1, j = end; i >= 0; i--) {
    positions[i] = j;
    j = back[i][j];
  }
  // Among equal matches the shorter text is the closer one.
  return { score: best - m * 0.01, positions };
}

export interface Ranked<T> {
  item: T;
  score: number;
  /** Positions in the item's title, when the title matched (for highlighting). */
  positions: number[];
}

/**
 * Items that match `query`, best first (ties keep their order). An item matches by its title, or by one of its
 * keywords at a lower weight, so the title's own match wins when both do.
 */
export function rankByQuery<T>(query: string, items: readonly T[], title: (item: T) => string, keywords: (item: T) => readonly string[] = () => []): Ranked<T>[] {
  const out: (Ranked<T> & { order: number })[] = [];
  items.forEach((item, order) => {
    const own = fuzzyMatch(query, title(item));
    let score = own ? own.score : -Infinity;
    for (const word of keywords(item)) {
      const m = fuzzyMatch(query, word);
      if (m && m.score * 0.8 > score) score = m.score * 0.8;
    }
    if (score !== -Infinity) out.push({ item, score, positions: own && own.score >= score ? own.positions : [], order });
  });
  out.sort((a, b) => b.score - a.score || a.order - b.order);
  return out.map(({ item, score, positions }) => ({ item, score, positions }));
}
