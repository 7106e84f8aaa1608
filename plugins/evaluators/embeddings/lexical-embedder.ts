import { tagVector } from './cosine.js';
import type { Embedder, Embedding } from './types.js';
import { words } from './word-tokens.js';

/** Dimensions of the lexical vector: 2^12 buckets keep hash collisions' noise on a cosine near 1/√4096 ≈ 0.016. */
export const LEXICAL_DIMS = 4096;
// Seeds keep a word and a character n-gram with the same letters apart.
const WORD_SEED = 0x9747b28c;
const GRAM_SEED = 0x811c9dc5;
/** A whole word counts as much as this many of its character n-grams. */
const WORD_WEIGHT = 3;

/** murmur3's finaliser: spreads FNV's weak low bits over the word. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The always-available baseline: signed feature hashing of each word's character 3- to 5-grams (with '<' and '>'
 * marking the word's edges, as fastText does) plus the words themselves, sublinear term frequency (1 + ln tf),
 * L2-normalised. It measures shared spelling, not meaning: "automobile" and "car" share nothing. Labelled
 * `lexical` and given its own thresholds; no IDF, so that a text's vector never depends on the other texts.
 */
export class LexicalEmbedder implements Embedder {
  readonly method = 'lexical' as const;
  readonly model = `hashed-char3-5+words/${LEXICAL_DIMS}/v1`;

  constructor(readonly reason?: string) {}

  async embed(texts: string[], signal?: AbortSignal): Promise<Embedding[]> {
    signal?.throwIfAborted();
    return texts.map((text) => this.embedOne(text));
  }

  embedOne(text: string): Embedding {
    const counts = new Map<number, number>();
    const add = (feature: number): void => { counts.set(feature, (counts.get(feature) ?? 0) + 1); };
    const list = words(text);
    const units: number[] = [];
    for (const word of list) {
      let h = WORD_SEED;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
      // The low bit marks a word feature, so that it gets WORD_WEIGHT below.
      add((mix(h) | 1) >>> 0);
      units.length = 0;
      units.push(0x3c);
      for (let i = 0; i < word.length; i++) units.push(word.charCodeAt(i));
      units.push(0x3e);
      for (let start = 0; start + 3 <= units.length; start++) {
        let g = GRAM_SEED;
        for (let k = 0; k < 5 && start + k < units.length; k++) {
          g = Math.imul(g ^ units[start + k], 0x01000193);
          if (k >= 2) add((mix(g) & ~1) >>> 0);
        }
      }
    }
    const vector = new Float32Array(LEXICAL_DIMS);
    let norm = 0;
    for (const [feature, tf] of counts) {
      const weight = (1 + Math.log(tf)) * (feature & 1 ? WORD_WEIGHT : 1);
      const bucket = (feature >>> 1) & (LEXICAL_DIMS - 1);
      vector[bucket] += feature & 0x80000000 ? -weight : weight;
    }
    for (let i = 0; i < LEXICAL_DIMS; i++) norm += vector[i] * vector[i];
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < LEXICAL_DIMS; i++) vector[i] *= inv;
    }
    return { vector: tagVector(vector, this.method, this.model), method: this.method, model: this.model, tokens: list.length };
  }
}
