// Smooth inverse frequency (Arora, Liang and Ma, "A simple but tough-to-beat baseline for sentence embeddings",
// ICLR 2017): a word's vector is weighted a / (a + p(w)), so that "the" and "of" barely move a sentence's average
// while rarer, meaningful words dominate it. The word list carries no counts, only its frequency order, so p(w) is
// Zipf's law over that order: p(rank r) = 1 / (r · H(N)), with H(N) the N-th harmonic number over the whole source
// vocabulary (341,479 words), not just the words kept.

/** The SIF smoothing constant; the paper finds 1e-4 to 1e-3 work alike. Part of the model label: change both. */
export const SIF_A = 1e-3;

/** H(n) = 1 + 1/2 + … + 1/n, to within 1e-9 for n ≥ 10 (the asymptotic expansion). */
export function harmonic(n: number): number {
  if (n < 10) {
    let h = 0;
    for (let k = 1; k <= n; k++) h += 1 / k;
    return h;
  }
  return Math.log(n) + 0.5772156649015329 + 1 / (2 * n) - 1 / (12 * n * n);
}

/** SIF weights for ranks 0 … count-1 of a vocabulary of `sourceSize` words ordered by frequency. */
export function sifWeights(count: number, sourceSize: number, a = SIF_A): Float32Array {
  const h = harmonic(sourceSize);
  const weights = new Float32Array(count);
  for (let r = 0; r < count; r++) {
    const p = 1 / ((r + 1) * h);
    weights[r] = a / (a + p);
  }
  return weights;
}

/** Zipf probability of the word at zero-based `rank`. */
export function zipfProbability(rank: number, sourceSize: number): number {
  return 1 / ((rank + 1) * harmonic(sourceSize));
}
